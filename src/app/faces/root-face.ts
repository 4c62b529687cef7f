import Router from "@koa/router";
import { registerHealthRoutes, type HealthProbe } from "../../api/http/health-routes";
import { registerNotificationRoutes } from "../../api/http/notification-routes";
import type { Federation } from "../../ngsi-ld/federation/federation";
import type { Storage } from "../storage";
import type { SubscriptionParts } from "../subscriptions";
import type { Face } from "./face";

/**
 * Plain HTTP routes outside the faces: `/health` (with `probes`, e.g. the SPARQL replicas' state) and the
 * notification queue's state.
 */
export function rootFace(
  { store }: Storage,
  subs: SubscriptionParts,
  federation: Federation,
  probes: Record<string, HealthProbe> = {},
): Face {
  const root = new Router();
  registerHealthRoutes(root, store, probes);
  // a dead job's subscription is an entity subscription or a context source one
  const services = [subs.subscriptions, federation.csourceSubscriptions];
  registerNotificationRoutes(
    root,
    subs.queue,
    (tenant, id) => services.map((s) => s.index.get(tenant, id)?.record).find((r) => r)?.owner,
  );
  return { routers: [root] };
}
