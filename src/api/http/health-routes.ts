import type Router from "@koa/router";
import type { GraphStore } from "../../store/graph-store";
import { requestOf } from "./request-context";

/** A dependency the health check asks (Redis when configured, for example). */
export type HealthProbe = () => Promise<{ ok: boolean; detail?: string }>;

/**
 * GET /health: the store answers, the journal is writable, and every configured
 * extra dependency (Redis) is reachable. 200 when all are fine, 503 otherwise, with the reasons for an
 * authenticated caller (or any caller with AUTH=off).
 */
export function registerHealthRoutes(
  router: Router,
  store: GraphStore,
  probes: Record<string, HealthProbe>,
): void {
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
    const stats = await store.stats().catch(() => undefined);
    ctx.status = ok ? 200 : 503;
    // anonymous callers (auth on, no credential) see the verdict only, not the store's internals
    ctx.body = requestOf(ctx).principal
      ? { status: ok ? "ok" : "degraded", checks, store: stats }
      : { status: ok ? "ok" : "degraded" };
  });
}
