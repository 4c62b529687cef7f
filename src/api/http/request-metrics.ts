import type { Context, Next } from "koa";
import type { Metrics } from "../../observability/metrics";
import { requestOf } from "./request-context";

/**
 * Counts every request in the metrics (docs/operations.md "Metrics"): in flight while it runs, then its face,
 * route template (the router's pattern, e.g. `/ngsi-ld/v1/entities/:entityId`; "unmatched" when no route
 * took it), method, status and duration. Runs outside the error middleware, so it sees the final status.
 */
export function requestMetrics(metrics: Metrics) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const t0 = performance.now();
    metrics.inFlight(1);
    try {
      await next();
    } finally {
      metrics.inFlight(-1);
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      metrics.request(
        requestOf(ctx).face,
        typeof route === "string" ? route : "unmatched",
        ctx.method,
        ctx.status,
        (performance.now() - t0) / 1000,
      );
    }
  };
}
