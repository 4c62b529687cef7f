import type { Metrics } from "../../observability/metrics";
import { methodLabelOf, routeTemplateOf } from "./request-context";
import type { RequestObserver } from "./request-id";

/**
 * Counts every request in the metrics (docs/operations.md "Metrics"): in flight while it runs, then its face,
 * route template (the router's pattern, e.g. `/ngsi-ld/v1/entities/:entityId`; "unmatched" when no route
 * took it), method (`_OTHER` for one outside HTTP's own: methodLabelOf), status and duration.
 */
export function requestMetrics(metrics: Metrics): RequestObserver {
  return {
    start: () => metrics.inFlight(1),
    end(ctx, request, seconds) {
      metrics.inFlight(-1);
      metrics.request(request.face, routeTemplateOf(ctx), methodLabelOf(ctx), ctx.status, seconds);
    },
  };
}
