import { hoursAhead } from "../rest/json-schema";
import { estimateUvIndex } from "../../domain/traffic/environment/uv-index";
import { nearest } from "../../domain/traffic/geo-distance";
import { CITY_CENTRE } from "../../domain/traffic";
import { notFound } from "../../errors";
import type { RouteSpec } from "../rest/schema-route";
import type { RestBDeps } from "./deps";
import { latLon, latLonOrZone } from "./params";
import { Q } from "./query-schemas";
import { AIR_QUALITY, WEATHER, WEATHER_FORECAST } from "./schemas";
import * as shape from "./response-mappers";

/** §4.5 Weather and air quality (B). */
export function environmentRoutes(b: RestBDeps): RouteSpec[] {
  const { d } = b;
  const place = (v: unknown) => latLonOrZone(v, (name) => d.zones.resolve(name, "location")) ?? CITY_CENTRE;
  return [
    {
      method: "get",
      path: "/weather/current",
      operationId: "getWeatherCurrent",
      notFound: true,
      summary:
        "Current weather at the station nearest to location (lat,lon or a zone id or name; default the city centre), with uv_index estimated from the sun's height and the cloud cover",
      tag: "weather",
      access: "viewer",
      query: { type: "object", properties: { location: Q.latLonOrZone } },
      response: WEATHER,
      handler: (_ctx, { query }) => {
        const w = d.weather.current(place(query.location));
        return shape.weather(w, estimateUvIndex(w.location, w.observedAt, w.cloudiness));
      },
    },
    {
      method: "get",
      path: "/weather/forecast",
      operationId: "getWeatherForecast",
      notFound: true,
      summary:
        "Hourly weather forecast at the station nearest to location (lat,lon; default the city centre)",
      tag: "weather",
      access: "viewer",
      query: {
        type: "object",
        properties: {
          hours: hoursAhead(168),
          location: Q.latLon,
        },
      },
      response: WEATHER_FORECAST,
      handler: (_ctx, { query }) => ({
        forecast: d.weather
          .forecast(query.hours as number, latLon(query.location) ?? CITY_CENTRE)
          .map(shape.weatherForecast),
      }),
    },
    {
      method: "get",
      path: "/air-quality",
      operationId: "getAirQuality",
      notFound: true,
      summary:
        "Air quality at the station nearest to location (lat,lon or a zone id or name; default the city centre): US EPA AQI, category, dominant pollutant, health implications",
      tag: "air-quality",
      access: "viewer",
      query: { type: "object", properties: { location: Q.latLonOrZone } },
      response: AIR_QUALITY,
      handler: (_ctx, { query }) => {
        const s = nearest(d.airQuality.current(), place(query.location));
        if (!s) throw notFound("No air-quality reading is available yet", {});
        return shape.airQuality(s);
      },
    },
  ];
}
