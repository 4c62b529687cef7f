import { faceRouter } from "./face-router";
import { registerMetricsRoute } from "../../api/http/metrics-routes";
import { registerHealthRoutes } from "../../api/http/health-routes";
import { registerNotificationRoutes } from "../../api/http/notification-routes";
import type { Federation } from "../../ngsi-ld/federation/federation";
import type { Operations } from "../operations";
import type { Storage } from "../storage";
import type { SubscriptionParts } from "../subscriptions";
import type { Face } from "./face";

/** Plain HTTP routes outside the faces: the probes, `/metrics` and the notification queue's state. */
export function rootFace(
  { store }: Storage,
  subs: SubscriptionParts,
  federation: Federation,
  ops: Operations,
  metricsToken: string | undefined,
): Face {
  const root = faceRouter();
  registerHealthRoutes(root, store, ops.probes, ops.readiness);
  if (ops.exposition) registerMetricsRoute(root, ops.exposition, metricsToken);
  // a dead job's subscription is an entity subscription or a context source one
  const services = [subs.subscriptions, federation.csourceSubscriptions];
  registerNotificationRoutes(
    root,
    subs.queue,
    (tenant, id) => services.map((s) => s.index.get(tenant, id)?.record).find((r) => r)?.owner,
  );
  return { routers: [root] };
}
