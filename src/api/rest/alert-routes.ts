import {
  ACTIVE_ALERTS,
  PUSH_KEY,
  SUBSCRIBED,
  SUBSCRIPTION_LIST,
  SUBSCRIPTION_REQUEST,
} from "./alert-schemas";
import { subscriptionBody, subscriptionScope, callerId, type ReportsApi } from "./reports-api";
import { route, type RouteSpec } from "./schema-route";

/**
 * Alerts of both REST variants (docs/reports-and-alerts.md "Alerts"):
 * POST /alerts/subscriptions -> 201 `{subscription_id, status: "active", message}`; GET lists the
 * caller's own; DELETE /alerts/subscriptions/{id} -> 204; GET /alerts/active -> `{alerts[]}`.
 */
export function alertRoutes(api: ReportsApi): RouteSpec[] {
  return [
    route({
      method: "post",
      path: "/alerts/subscriptions",
      operationId: "createAlertSubscription",
      summary:
        "Subscribe to alerts; a channel that is not configured, an unknown district or a missing target is a 400",
      tag: "alerts",
      access: "viewer",
      body: SUBSCRIPTION_REQUEST,
      status: 201,
      response: SUBSCRIBED,
      handler: async (ctx, { body }) => {
        const s = await api.alertSubscriptions.create(
          {
            userId: body.user_id,
            alertTypes: body.alert_types,
            locations: body.locations,
            severityThreshold: body.severity_threshold,
            channels: body.channels,
            targets: {
              email: body.email,
              phone: body.phone,
              webhook_url: body.webhook_url,
              push_subscription: body.push_subscription,
            },
          },
          callerId(ctx),
        );
        const where = s.locations.length ? ` in ${s.locations.join(", ")}` : "";
        return {
          subscription_id: s.id,
          status: s.status,
          message: `Subscribed to ${s.alertTypes.join(", ")} alerts${where} from ${s.severityThreshold} by ${s.channels.join(", ")}`,
        };
      },
    }),
    {
      method: "get",
      path: "/alerts/subscriptions",
      operationId: "listAlertSubscriptions",
      summary: "The caller's alert subscriptions (an admin's: everyone's)",
      tag: "alerts",
      access: "viewer",
      response: SUBSCRIPTION_LIST,
      handler: (ctx) => ({
        subscriptions: api.alertSubscriptions.list(subscriptionScope(ctx)).map(subscriptionBody),
      }),
    },
    {
      method: "delete",
      path: "/alerts/subscriptions/:id",
      operationId: "deleteAlertSubscription",
      summary: "Delete one of the caller's alert subscriptions",
      tag: "alerts",
      access: "viewer",
      params: { id: "Subscription id" },
      status: 204,
      response: {},
      handler: (ctx, { params }) => api.alertSubscriptions.delete(params.id, subscriptionScope(ctx)),
    },
    {
      method: "get",
      path: "/alerts/active",
      operationId: "listActiveAlerts",
      summary: "Alerts derived from the graph as it stands, most severe first",
      tag: "alerts",
      access: "viewer",
      response: ACTIVE_ALERTS,
      handler: async () => ({ alerts: await api.activeAlerts() }),
    },
    {
      method: "get",
      path: "/alerts/push-key",
      operationId: "getAlertPushKey",
      summary: "The service's VAPID public key, for a browser's Web Push subscription",
      tag: "alerts",
      access: "viewer",
      response: PUSH_KEY,
      handler: () => ({ vapid_public_key: api.vapidPublicKey }),
    },
  ];
}
