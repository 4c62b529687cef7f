import Router from "@koa/router";
import { registerHealthRoutes } from "../../api/http/health-routes";
import { registerNotificationRoutes } from "../../api/http/notification-routes";
import type { Storage } from "../storage";
import type { SubscriptionParts } from "../subscriptions";
import type { Face } from "./face";

/** Plain HTTP routes outside the faces: `/health` and the notification queue's state. */
export function rootFace({ store }: Storage, subs: SubscriptionParts): Face {
  const root = new Router();
  registerHealthRoutes(root, store, {});
  registerNotificationRoutes(root, subs.queue);
  return { routers: [root] };
}
