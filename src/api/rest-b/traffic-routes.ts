import { hoursAhead } from "../rest/json-schema";
import { areaCongestionIndex } from "../../domain/traffic/zones/area-congestion";
import {
  FLOW_INTERVALS,
  MAX_FLOW_WINDOWS,
  type FlowInterval,
  type FlowWindow,
} from "../../domain/traffic/flow/flow-intervals";
import { AppError } from "../../errors";
import { cursorPage } from "../rest/cursor-form";
import { listScope } from "../rest/cursor-codec";
import type { RouteSpec } from "../rest/schema-route";
import { AnswerMemo } from "./answer-memo";
import type { RestBDeps } from "./deps";
import { period } from "./params";
import { FLOW_INTERVAL, Q } from "./query-schemas";
import { CONGESTION_ZONES, FLOW, FORECAST, REALTIME } from "./schemas";
import * as shape from "./response-mappers";

const HOUR = 3_600_000;

/** §4.4 Traffic (B): realtime and congestion zones in B's names, forecast, and the flow observations. */
export function trafficRoutes(b: RestBDeps): RouteSpec[] {
  const { d } = b;
  const flowAnswers = new AnswerMemo();
  return [
    {
      method: "get",
      path: "/traffic/realtime",
      operationId: "getTrafficRealtime",
      summary:
        "Traffic state per zone: congestion_level 0 (free flow) to 100 (standstill), status label, cameras",
      tag: "traffic",
      access: "viewer",
      query: {
        type: "object",
        properties: { zone_id: { ...Q.district, description: "Only this zone (id or name)" } },
      },
      response: REALTIME,
      handler: (_ctx, { query }) => {
        const only =
          typeof query.zone_id === "string" ? d.zones.resolve(query.zone_id, "zone_id") : undefined;
        return {
          timestamp: new Date(b.now()).toISOString(),
          zones: d.zones.realtime(only).map(shape.zoneTraffic),
        };
      },
    },
    {
      method: "get",
      path: "/traffic/forecast",
      operationId: "getTrafficForecast",
      summary: "Hourly forecast of a zone's traffic, up to 72 hours ahead",
      tag: "traffic",
      access: "viewer",
      query: {
        type: "object",
        required: ["zone_id"],
        properties: {
          zone_id: { ...Q.district, description: "Zone id or name" },
          hours: hoursAhead(72),
        },
      },
      response: FORECAST,
      handler: (_ctx, { query }) => {
        const zone = d.zones.resolve(query.zone_id as string, "zone_id");
        const { points } = d.zones.forecast(zone, query.hours as number);
        return { zone_id: zone.id, forecast: points.map(shape.forecastPoint) };
      },
    },
    {
      method: "get",
      path: "/traffic/congestion-zones",
      operationId: "getCongestionZones",
      summary: "Congested areas now (cameras at moderate or worse, clustered), each a polygon of [lat, lon]",
      tag: "traffic",
      access: "viewer",
      response: CONGESTION_ZONES,
      handler: () => ({
        timestamp: new Date(b.now()).toISOString(),
        zones: d.zones
          .congestionAreas()
          .map((a) => shape.congestionZone(a, areaCongestionIndex(a, d.projection, d.rollup))),
      }),
    },
    {
      method: "get",
      path: "/traffic/flow",
      operationId: "getTrafficFlow",
      notFound: true,
      summary:
        "TrafficFlowObserved observations of a camera aggregated from its history at 1m, 5m, 15m or 1h (counts summed, speed and occupancy averaged); default the last hour at 5m",
      tag: "traffic",
      access: "viewer",
      query: {
        type: "object",
        required: ["camera_id"],
        properties: {
          camera_id: { type: "string", minLength: 1, maxLength: 200, description: "Camera id" },
          start_time: Q.startTime,
          end_time: Q.endTime,
          interval: { ...FLOW_INTERVAL, default: "5m", description: "Window of each observation" },
          limit: {
            ...Q.limit,
            default: 100,
            description: "Observations per page in the cursor form (max 100)",
          },
          cursor: Q.cursor,
        },
      },
      response: FLOW,
      handler: (ctx, { query }) => {
        const cam = d.cameras.get(query.camera_id as string);
        const interval = query.interval as FlowInterval;
        const { from, to } = period(query, b.now(), HOUR);
        if ((to - from) / FLOW_INTERVALS[interval] > MAX_FLOW_WINDOWS) {
          throw new AppError(
            "BadRequestData",
            `The period holds more than ${MAX_FLOW_WINDOWS} windows of ${interval}`,
            {
              parameter: "interval",
              value: interval,
              expected: `an interval giving at most ${MAX_FLOW_WINDOWS} windows over the period`,
            },
          );
        }
        const map = (w: FlowWindow) => shape.flowObservation(w, cam.camera.location);
        const cursorForm = typeof ctx.query.cursor === "string" || Array.isArray(ctx.query.cursor);
        if (!cursorForm) {
          // the same period of an unchanged history is the same answer: kept, not re-read per request
          const flowId = d.projection.flowEntities.get(cam.camera.id);
          const { lat, lon } = cam.camera.location;
          const key = `${cam.camera.id}|${flowId}|${flowId ? d.historyVersions.of(flowId) : ""}|${lat},${lon}|${interval}|${from}|${to}`;
          return flowAnswers.get(key, () =>
            JSON.stringify({
              camera_id: cam.camera.id,
              interval,
              observations: b.flows.windows(cam.camera.id, from, to, interval).map(map),
            }),
          );
        }
        const windows = b.flows.windows(cam.camera.id, from, to, interval);
        const scope = listScope(ctx.path, {
          camera: cam.camera.id,
          interval,
          start: query.start_time,
          end: query.end_time,
        });
        const req = { cursor: String(query.cursor ?? ""), limit: query.limit as number };
        return cursorPage(b.codec, scope, windows, { key: (w) => [w.from] }, req, map);
      },
    },
  ];
}
