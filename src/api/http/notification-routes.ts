import type Router from "@koa/router";
import { mayUseTenant } from "../../auth/principal";
import { servesAllTenants } from "../../auth/tenant-scope";
import type { NotificationQueue } from "../../jobs/notification-job";
import { ownerScope } from "./ownership";
import { principalOf } from "./request-context";
import { tenantOf } from "./tenant";

/**
 * GET /notifications/queue: the counts of the notification queue
 * (waiting, active, delayed, dead) and the newest dead jobs, i.e. notifications that ran out of attempts,
 * with their last error. `?limit=` (default 20, at most 1000) bounds the list. An admin of every tenant sees
 * the whole queue; an admin limited to some tenants, without the counts (they span every tenant), the dead
 * jobs of its tenants; anyone else, without the counts, the dead jobs of the tenant of `NGSILD-Tenant` whose
 * subscription it owns (`ownerOf`: the owner of a live subscription, undefined for none or a removed one).
 */
export function registerNotificationRoutes(
  router: Router,
  queue: NotificationQueue,
  ownerOf: (tenant: string, subscriptionId: string) => string | undefined,
): void {
  router.get("/notifications/queue", async (ctx) => {
    const raw = Number(ctx.query.limit ?? 20);
    const limit = Number.isInteger(raw) && raw >= 0 ? Math.min(raw, 1000) : 20;
    const scope = ownerScope(ctx);
    const principal = principalOf(ctx);
    const all = scope === undefined && servesAllTenants(principal);
    const tenant = tenantOf(ctx);
    const shown = (t: string, id: string) =>
      scope === undefined ? mayUseTenant(principal, t) : t === tenant && ownerOf(t, id) === scope;
    const dead = (await queue.dead(all ? limit : 1000)).filter(
      (d) => all || shown(d.job.tenant, d.job.subscriptionId),
    );
    ctx.body = {
      durable: queue.durable,
      ...(all ? { counts: await queue.counts() } : {}),
      dead: dead.slice(0, limit).map((d) => ({
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
