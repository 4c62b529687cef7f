import type { AccidentEventData, LiveEvent } from "../../events/live-event";
import { SharedMessage } from "../http/shared-message";
import { type AppError, ERROR_KINDS } from "../../errors";

/**
 * The server message of a live event (docs/graphql-and-websocket.md "Server messages"): `update` on
 * traffic with `data{zone_id, congestion_level, avg_speed, vehicle_count}`, `alert` on accidents with
 * `data{id, severity, location{lat,lon}, message}`, and `update` on weather (our shape: the station's
 * observation, snake_case as the REST faces). Fields beyond these are additive.
 */
export function eventMessage(e: LiveEvent): Record<string, unknown> {
  const base = { channel: e.channel, timestamp: e.at, ...(e.replay ? { replay: true } : {}) };
  if (e.channel === "traffic") {
    const d = e.data;
    return {
      ...base,
      type: "update",
      data: {
        zone_id: d.zoneId,
        name: d.name,
        congestion_level: d.congestionLevel,
        congestion_index: d.congestionIndex,
        avg_speed: d.avgSpeed,
        vehicle_count: d.vehicleCount,
        incident_count: d.incidentCount,
      },
    };
  }
  if (e.channel === "accidents") {
    const d = e.data;
    return {
      ...base,
      type: "alert",
      data: {
        id: d.id,
        severity: d.severity,
        location: d.location,
        message: accidentMessage(e.data),
        status: d.status,
        change: d.change,
        zone_id: d.zoneId,
        camera_id: d.cameraId,
        vehicles_involved: d.vehiclesInvolved,
        injuries: d.injuries,
        fatalities: d.fatalities,
        accident_time: d.timestamp,
      },
    };
  }
  const d = e.data;
  return {
    ...base,
    type: "update",
    data: {
      station_id: d.stationId,
      name: d.name,
      location: d.location,
      temperature: d.temperature,
      feels_like: d.feelsLike,
      humidity: d.humidity,
      pressure: d.pressure,
      wind: { speed: d.windSpeed, direction: d.windDirection },
      precipitation: d.precipitation,
      conditions: d.conditions,
    },
  };
}

/** A one-line human message of an accident event. */
export function accidentMessage(d: AccidentEventData): string {
  const where = d.zoneId ? ` in ${d.zoneId}` : "";
  if (d.change === "created") return `New ${d.severity} accident${where}`;
  if (d.change === "severity_changed") return `Accident${where} is now ${d.severity}`;
  return `Accident${where} is now ${d.status}`;
}

/** Events rendered so far: the bus hands every subscriber of an event the same object. */
const rendered = new WeakMap<LiveEvent, SharedMessage>();

/** The message of `e` for a subscription id: the JSON is made once per event, the Buffer once per id. */
export function eventFrame(e: LiveEvent, subscriptionId: string): Buffer {
  let message = rendered.get(e);
  if (message === undefined) {
    message = new SharedMessage(JSON.stringify(eventMessage(e)));
    rendered.set(e, message);
  }
  return message.with(`{"subscription":${JSON.stringify(subscriptionId)},`);
}

/** `{type:"error", id?, error:{code, message}}` of an AppError. */
export function errorMessage(e: AppError, id?: string): Record<string, unknown> {
  return {
    type: "error",
    ...(id ? { id } : {}),
    error: { code: ERROR_KINDS[e.kind].code, message: e.message },
  };
}
