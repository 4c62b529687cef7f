import type Router from "@koa/router";
import { parseJson, readBody } from "../http/read-body";
import { subscriptionBody, subscriptionScope, callerId, type ReportsApi } from "./reports-api";

/**
 * Alerts of both REST variants (interface spec §4.7; decisions.md "Values the spec does not list"):
 * POST /alerts/subscriptions -> 201 `{subscription_id, status: "active", message}`; GET lists the
 * caller's own; DELETE /alerts/subscriptions/{id} -> 204; GET /alerts/active -> `{alerts[]}`.
 */
export function registerAlertRoutes(router: Router, api: ReportsApi, maxBodyBytes: number): void {
  router.post("/alerts/subscriptions", async (ctx) => {
    const s = await api.alertSubscriptions.create(
      parseJson(await readBody(ctx, maxBodyBytes)),
      callerId(ctx),
    );
    ctx.status = 201;
    ctx.body = {
      subscription_id: s.id,
      status: s.status,
      message: `Subscribed to ${s.alertTypes.join(", ")} alerts${s.locations.length ? ` in ${s.locations.join(", ")}` : ""} from ${s.severityThreshold} by ${s.channels.join(", ")}`,
    };
  });
  router.get("/alerts/subscriptions", (ctx) => {
    ctx.body = { subscriptions: api.alertSubscriptions.list(subscriptionScope(ctx)).map(subscriptionBody) };
  });
  router.delete("/alerts/subscriptions/:id", async (ctx) => {
    await api.alertSubscriptions.delete(ctx.params.id, subscriptionScope(ctx));
    ctx.status = 204;
  });
  router.get("/alerts/active", async (ctx) => {
    ctx.body = { alerts: await api.activeAlerts() };
  });
  router.get("/alerts/push-key", (ctx) => {
    ctx.body = { vapid_public_key: api.vapidPublicKey };
  });
}
