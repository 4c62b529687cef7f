import type Router from "@koa/router";
import type { Readiness } from "../../observability/readiness";
import type { GraphStore } from "../../store/graph-store";
import { requestOf } from "./request-context";

/** A dependency the health check asks (Redis when configured, for example). */
export type HealthProbe = () => Promise<{ ok: boolean; detail?: string }>;

/**
 * The probes (docs/operations.md "Probes"):
 * - GET /health/live: the process answers (200 always).
 * - GET /health/ready: 200 when every readiness check passes, else 503 with `notReady`, the list of what is
 *   not ready yet (the store's indexes filling, the demo backfill, Redis, a shutdown).
 * - GET /health: the store answers, the journal is writable, every extra dependency (Redis) is reachable:
 *   200, else 503. Its body also says `ready` and `notReady`, as /health/ready would; the reasons and the
 *   store's figures go to an authenticated caller (or any caller with AUTH=off).
 */
export function registerHealthRoutes(
  router: Router,
  store: GraphStore,
  probes: Record<string, HealthProbe>,
  readiness: Readiness,
): void {
  router.get("/health/live", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "live" };
  });
  router.get("/health/ready", async (ctx) => {
    const notReady = await readiness.notReady();
    ctx.set("Cache-Control", "no-store");
    ctx.status = notReady.length === 0 ? 200 : 503;
    ctx.body = notReady.length === 0 ? { status: "ready" } : { status: "not ready", notReady };
  });
  router.get("/health", async (ctx) => {
    const checks: Record<string, { ok: boolean; detail?: string }> = {};
    try {
      const h = await store.health();
      checks.store = { ok: h.ok, detail: h.detail };
      checks.journal = { ok: h.journalWritable };
    } catch (e) {
      checks.store = { ok: false, detail: (e as Error).message };
    }
    for (const [name, probe] of Object.entries(probes)) {
      try {
        checks[name] = await probe();
      } catch (e) {
        checks[name] = { ok: false, detail: (e as Error).message };
      }
    }
    const ok = Object.values(checks).every((c) => c.ok);
    const notReady = await readiness.notReady();
    const verdict = { status: ok ? "ok" : "degraded", ready: notReady.length === 0, notReady };
    const stats = await store.stats().catch(() => undefined);
    ctx.status = ok ? 200 : 503;
    ctx.set("Cache-Control", "no-store");
    // anonymous callers (auth on, no credential) see the verdict only, not the store's internals
    ctx.body = requestOf(ctx).principal ? { ...verdict, checks, store: stats } : verdict;
  });
}
