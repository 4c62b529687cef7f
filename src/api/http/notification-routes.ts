import type Router from "@koa/router";
import type { NotificationQueue } from "../../jobs/notification-job";

/**
 * GET /notifications/queue: the counts of the notification queue
 * (waiting, active, delayed, dead) and the newest dead jobs, i.e. notifications that ran out of attempts,
 * with their last error. `?limit=` (default 20, at most 1000) bounds the list.
 */
export function registerNotificationRoutes(router: Router, queue: NotificationQueue): void {
  router.get("/notifications/queue", async (ctx) => {
    const raw = Number(ctx.query.limit ?? 20);
    const limit = Number.isInteger(raw) && raw >= 0 ? Math.min(raw, 1000) : 20;
    const dead = await queue.dead(limit);
    ctx.body = {
      durable: queue.durable,
      counts: await queue.counts(),
      dead: dead.map((d) => ({
        subscriptionId: d.job.subscriptionId,
        tenant: d.job.tenant,
        uri: d.job.uri,
        error: d.error,
        attempts: d.attempts,
        failedAt: d.failedAt,
      })),
    };
  });
}
