import { hoursAhead } from "../rest/json-schema";
import type { TrafficDomain } from "../../domain/traffic";
import type { RouteSpec } from "../rest/schema-route";
import { CONGESTION_ZONES, FORECAST, Q, REALTIME } from "./schemas";
import * as shape from "./response-mappers";

/** §4.4 Traffic. */
export function trafficRoutes(d: TrafficDomain): RouteSpec[] {
  return [
    {
      method: "get",
      path: "/traffic/realtime",
      operationId: "getRealtimeTraffic",
      summary: "The traffic state of every zone (district) now, or of one",
      tag: "traffic",
      access: "viewer",
      query: {
        type: "object",
        properties: { zone_id: { ...Q.district, description: "Zone id (or name)" }, district: Q.district },
      },
      response: REALTIME,
      handler: (_ctx, { query }) => {
        const name = (query.zone_id ?? query.district) as string | undefined;
        const zone =
          name === undefined
            ? undefined
            : d.zones.resolve(name, query.zone_id !== undefined ? "zone_id" : "district");
        return { timestamp: new Date().toISOString(), zones: d.zones.realtime(zone).map(shape.zoneTraffic) };
      },
    },
    {
      method: "get",
      path: "/traffic/congestion-zones",
      operationId: "getCongestionZones",
      summary: "Congested areas now: hulls of clustered congested cameras, polygons of [lat, lon]",
      tag: "traffic",
      access: "viewer",
      response: CONGESTION_ZONES,
      handler: () => ({
        timestamp: new Date().toISOString(),
        zones: d.zones.congestionAreas().map(shape.congestionZone),
      }),
    },
    {
      method: "get",
      path: "/traffic/forecast",
      operationId: "getTrafficForecast",
      summary: "Hourly speed and congestion forecast of a zone with confidence and a 95 % interval",
      tag: "traffic",
      access: "viewer",
      query: {
        type: "object",
        required: ["zone_id"],
        properties: {
          zone_id: { ...Q.district, description: "Zone id (or name)" },
          hours: hoursAhead(72),
        },
      },
      response: FORECAST,
      handler: (_ctx, { query }) => {
        const zone = d.zones.resolve(query.zone_id as string, "zone_id");
        const { model, points } = d.zones.forecast(zone, query.hours as number);
        return {
          zone_id: zone.id,
          model: {
            method: "hour-of-week profile (shrunk to the day-type profile) + damped exponential smoothing",
            fitted_weeks: round(model?.fit.weeks ?? 0, 2),
            one_step_rmse: round(model?.fit.oneStepRmse ?? 0, 2),
            profile_rmse: round(model?.fit.profileRmse ?? 0, 2),
            alpha: model?.fit.alpha ?? 0,
            phi: round(model?.fit.phi ?? 0, 3),
          },
          forecast: points.map(shape.forecastPoint),
        };
      },
    },
  ];
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
