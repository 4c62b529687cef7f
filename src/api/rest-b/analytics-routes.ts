import { period } from "./params";
import type { RouteSpec } from "../rest/schema-route";
import type { RestBDeps } from "./deps";
import { Q } from "./query-schemas";
import { PATTERNS, ZONE_ANALYTICS } from "./schemas";
import { CITY_CENTRE } from "../../domain/traffic";
import { locateZone } from "../../domain/traffic/projection/zone-locator";
import { hotspotSeverity, peakSeverity } from "../../domain/traffic/flow/pattern-severity";
import * as shape from "./response-mappers";

/** The window variant B's patterns look at (the operation takes no parameters). */
export const PATTERN_WINDOW_MS = 30 * 86_400_000;
/** Radius of an accident hotspot (the spatial patterns' DBSCAN radius). */
const HOTSPOT_RADIUS_M = 500;

/** §4.6 Analytics (B): patterns over the last 30 days, and a zone's figures over a period. */
export function analyticsRoutes(b: RestBDeps): RouteSpec[] {
  const { d } = b;
  return [
    {
      method: "get",
      path: "/analytics/patterns",
      operationId: "getAnalyticsPatterns",
      summary:
        "Patterns of the last 30 days: weekday and weekend traffic peaks (city-wide) and accident hotspots, each with a severity",
      tag: "analytics",
      access: "viewer",
      response: PATTERNS,
      handler: () => {
        const to = b.now();
        const from = to - PATTERN_WINDOW_MS;
        const peaks = d.analytics.temporal(from, to).map((p) => {
          const weekend = p.pattern === "weekend_peak";
          const [h0, h1] = p.timeRange.split("-").map((x) => Number(x.slice(0, 2)));
          return shape.pattern(
            p,
            CITY_CENTRE,
            "Ho Chi Minh City",
            peakSeverity(d.rollup, from, to, h0, h1, weekend),
          );
        });
        const hotspots = d.analytics.spatial(from, to).map((p) => {
          const at = p.location ?? CITY_CENTRE;
          const zone = locateZone(d.zones.list(), at);
          return shape.pattern(
            p,
            at,
            zone?.name ?? "",
            hotspotSeverity(d.projection, at, HOTSPOT_RADIUS_M, from, to),
          );
        });
        return { patterns: [...peaks, ...hotspots] };
      },
    },
    {
      method: "get",
      path: "/analytics/zones/:zone_id",
      operationId: "getZoneAnalytics",
      summary:
        "A zone's vehicles, mean speed, busiest hour, accidents and congested hours over a period (default: the last 24 hours), from the 15-minute flow rollup",
      tag: "analytics",
      access: "viewer",
      params: { zone_id: "Zone (district) id or name" },
      query: {
        type: "object",
        properties: { start_time: Q.startTime, end_time: Q.endTime, metrics: Q.metrics },
      },
      response: ZONE_ANALYTICS,
      handler: (_ctx, { params, query }) => {
        const zone = d.zones.get(params.zone_id);
        const metrics = (query.metrics ?? []) as string[];
        const { from, to } = period(query, b.now());
        return shape.zoneAnalytics(zone.id, from, to, b.stats.zone(zone.id, from, to), metrics);
      },
    },
  ];
}
