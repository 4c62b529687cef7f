import { AppError } from "../../errors";
import { SUMMARY_METRICS, type SummaryMetric } from "../../domain/analytics/analytics-service";
import type { TrafficDomain } from "../../domain/traffic";
import type { RouteSpec } from "../rest/schema-route";
import { period } from "./params";
import { ANALYTICS_PATTERNS, ANALYTICS_SUMMARY, CORRELATIONS, Q } from "./schemas";

const iso = (t: number) => new Date(t).toISOString();
/** The window of GET /analytics/correlations (it takes no parameters). */
const CORRELATION_WINDOW_MS = 7 * 86_400_000;

/** §4.6 Analytics (A). */
export function analyticsRoutes(d: TrafficDomain): RouteSpec[] {
  const a = d.analytics;
  return [
    {
      method: "get",
      path: "/analytics/summary",
      operationId: "getAnalyticsSummary",
      summary: "Totals and means over a period: vehicles, speed, accidents, congestion, peak hours",
      tag: "analytics",
      access: "viewer",
      query: {
        type: "object",
        required: ["start_date", "end_date"],
        properties: {
          start_date: Q.startDate,
          end_date: Q.endDate,
          metrics: {
            type: "string",
            maxLength: 500,
            description: `Comma-separated subset of ${SUMMARY_METRICS.join(", ")} (default all)`,
          },
        },
      },
      response: ANALYTICS_SUMMARY,
      handler: (_ctx, { query }) => {
        const { from, to } = period(query);
        const metrics = parseMetrics(query.metrics);
        return { period: { start: iso(from), end: iso(to) }, metrics: a.summary(from, to, metrics) };
      },
    },
    {
      method: "get",
      path: "/analytics/patterns",
      operationId: "getAnalyticsPatterns",
      summary: "Temporal (peak hours by day type), spatial (accident hotspots) or correlation patterns",
      tag: "analytics",
      access: "viewer",
      query: {
        type: "object",
        required: ["type", "start_date", "end_date"],
        properties: {
          type: { type: "string", enum: ["temporal", "spatial", "correlation"] },
          start_date: Q.startDate,
          end_date: Q.endDate,
        },
      },
      response: ANALYTICS_PATTERNS,
      handler: (_ctx, { query }) => {
        const { from, to } = period(query);
        const type = query.type as "temporal" | "spatial" | "correlation";
        const patterns =
          type === "temporal"
            ? a.temporal(from, to)
            : type === "spatial"
              ? a.spatial(from, to)
              : a
                  .correlations(from, to)
                  .filter((c) => c.significance !== "none" && Math.abs(c.r) >= 0.3)
                  .map((c) => ({
                    pattern: `${c.factor1}~${c.factor2}`,
                    timeRange: `${iso(from)}/${iso(to)}`,
                    frequency: c.n,
                    confidence: Math.round((1 - c.p) * 1000) / 1000,
                    description: `${c.factor1} and ${c.factor2} correlate (r = ${c.r}, p = ${c.p}, ${c.n} hours)`,
                  }));
        return {
          pattern_type: type,
          patterns: patterns.map((p) => ({
            pattern: p.pattern,
            time_range: p.timeRange,
            frequency: p.frequency,
            confidence: p.confidence,
            description: p.description,
            ...("location" in p && p.location ? { location: p.location } : {}),
          })),
        };
      },
    },
    {
      method: "get",
      path: "/analytics/correlations",
      operationId: "getAnalyticsCorrelations",
      summary:
        "Pearson correlations between rain, temperature, AQI, speed, vehicle count and accidents over the last 7 days, hourly, with t-test p-values",
      tag: "analytics",
      access: "viewer",
      response: CORRELATIONS,
      handler: () => {
        const to = Math.floor(Date.now() / 3_600_000) * 3_600_000;
        const from = to - CORRELATION_WINDOW_MS;
        return {
          period: { start: iso(from), end: iso(to) },
          correlations: a.correlations(from, to).map((c) => ({
            factor1: c.factor1,
            factor2: c.factor2,
            correlation: c.r,
            p_value: c.p,
            significance: c.significance,
            n: c.n,
          })),
        };
      },
    },
  ];
}

function parseMetrics(v: unknown): SummaryMetric[] {
  if (typeof v !== "string" || v.trim() === "") return [...SUMMARY_METRICS];
  const names = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!SUMMARY_METRICS.includes(n as SummaryMetric)) {
      throw new AppError("BadRequestData", `Unknown metric: ${n}`, {
        parameter: "metrics",
        value: v,
        expected: SUMMARY_METRICS,
      });
    }
  }
  return names as SummaryMetric[];
}
