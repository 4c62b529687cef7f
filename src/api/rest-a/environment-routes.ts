import { hoursAhead } from "../rest/json-schema";
import type { TrafficDomain } from "../../domain/traffic";
import type { RouteSpec } from "../rest/schema-route";
import { latLon, period } from "./params";
import { AIR_CURRENT, AIR_HISTORY, Q, WEATHER_CURRENT, WEATHER_FORECAST } from "./schemas";
import * as shape from "./response-mappers";

/** §4.5 Weather and air quality. */
export function environmentRoutes(d: TrafficDomain): RouteSpec[] {
  return [
    {
      method: "get",
      path: "/weather/current",
      operationId: "getCurrentWeather",
      summary: "The weather observation nearest to a location (default the city centre)",
      tag: "weather",
      access: "viewer",
      query: { type: "object", properties: { location: Q.location } },
      response: WEATHER_CURRENT,
      handler: (_ctx, { query }) => shape.weather(d.weather.current(latLon(query.location))),
    },
    {
      method: "get",
      path: "/weather/forecast",
      operationId: "getWeatherForecast",
      summary: "Hourly weather forecast from the nearest station's history",
      tag: "weather",
      access: "viewer",
      query: {
        type: "object",
        properties: {
          hours: hoursAhead(168),
          location: Q.location,
        },
      },
      response: WEATHER_FORECAST,
      handler: (_ctx, { query }) => ({
        forecast: d.weather
          .forecast(query.hours as number, latLon(query.location))
          .map(shape.weatherForecast),
      }),
    },
    {
      method: "get",
      path: "/air-quality/current",
      operationId: "getCurrentAirQuality",
      summary: "Every station's latest reading with its US EPA AQI and category",
      tag: "air-quality",
      access: "viewer",
      response: AIR_CURRENT,
      handler: () => ({
        timestamp: new Date().toISOString(),
        stations: d.airQuality.current().map(shape.airStation),
      }),
    },
    {
      method: "get",
      path: "/air-quality/history",
      operationId: "getAirQualityHistory",
      summary: "A station's AQI and PM2.5 by hour or day",
      tag: "air-quality",
      access: "viewer",
      query: {
        type: "object",
        required: ["station_id", "start_date", "end_date"],
        properties: {
          station_id: { type: "string", minLength: 1, maxLength: 200 },
          start_date: Q.startDate,
          end_date: Q.endDate,
          interval: { type: "string", enum: ["hour", "day"], default: "hour" },
        },
      },
      response: AIR_HISTORY,
      handler: (_ctx, { query }) => {
        const s = d.airQuality.station(query.station_id as string);
        const { from, to } = period(query);
        const interval = query.interval as "hour" | "day";
        return {
          station_id: s.id,
          interval,
          data: d.airQuality.history(s, from, to, interval).map(shape.airHistory),
        };
      },
    },
  ];
}
