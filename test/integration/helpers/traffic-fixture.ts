import { expect } from "chai";
import { TRAFFIC_CONTEXT_URL } from "../../../src/domain/vocabulary";
import {
  dateTime,
  entity,
  geoProperty,
  point,
  property,
  relationship,
} from "../../../src/demo/seed/ngsi-ld-doc";
import { http, linkTo } from "./test-app";

/** The Link header naming the traffic context. */
export const TRAFFIC_LINK = { Link: linkTo(TRAFFIC_CONTEXT_URL) };

/** Upserts entity documents (with @context) through the broker's own NGSI-LD batch API. */
export async function upsert(base: string, docs: object[]): Promise<void> {
  const r = await http(base, "POST", "/ngsi-ld/v1/entityOperations/upsert?options=update", docs, {
    "Content-Type": "application/ld+json",
  });
  expect(r.status, r.text).to.be.oneOf([201, 204]);
}

/** A TrafficFlowObserved of camera `cam` for the window ending at `t`. */
export function flowDoc(
  cam: { id: string; lon: number; lat: number },
  t: number,
  count: number,
  speed: number,
  minutes = 15,
) {
  const at = { observedAt: new Date(t).toISOString() };
  return entity(`urn:ngsi-ld:TrafficFlowObserved:${cam.id}`, "TrafficFlowObserved", {
    location: geoProperty(point(cam.lon, cam.lat)),
    refCamera: relationship(`urn:ngsi-ld:TrafficCamera:${cam.id}`),
    dateObserved: property(dateTime(new Date(t)), at),
    dateObservedFrom: property(dateTime(new Date(t - minutes * 60_000)), at),
    dateObservedTo: property(dateTime(new Date(t)), at),
    intensity: property(count, at),
    motorcycleCount: property(Math.round(count * 0.8), at),
    carCount: property(count - Math.round(count * 0.8), at),
    busCount: property(0, at),
    truckCount: property(0, at),
    averageVehicleSpeed: property(speed, { ...at, unitCode: "KMH" }),
    occupancy: property(0.2, at),
  });
}

/** A WeatherObserved of a station at `t`. */
export function weatherDoc(
  slug: string,
  lon: number,
  lat: number,
  t: number,
  temperature: number,
  rain: number,
) {
  const at = { observedAt: new Date(t).toISOString() };
  return entity(`urn:ngsi-ld:WeatherObserved:${slug}`, "WeatherObserved", {
    name: property(`Station ${slug}`),
    location: geoProperty(point(lon, lat)),
    refDistrict: relationship(`urn:ngsi-ld:District:${slug}`),
    dateObserved: property(dateTime(new Date(t)), at),
    temperature: property(temperature, at),
    feelsLikeTemperature: property(temperature + 1, at),
    relativeHumidity: property(0.7, at),
    atmosphericPressure: property(1010, at),
    windSpeed: property(2, at),
    windDirection: property(90, at),
    precipitation: property(rain, at),
    cloudiness: property(rain > 0 ? 0.9 : 0.2, at),
    weatherType: property(rain > 0 ? "light rain" : "clear sky", at),
  });
}

/** An AirQualityObserved of a station at `t`. */
export function airDoc(slug: string, lon: number, lat: number, t: number, pm25: number) {
  const at = { observedAt: new Date(t).toISOString() };
  return entity(`urn:ngsi-ld:AirQualityObserved:${slug}`, "AirQualityObserved", {
    name: property(`Air ${slug}`),
    location: geoProperty(point(lon, lat)),
    dateObserved: property(dateTime(new Date(t)), at),
    pm25: property(pm25, at),
    pm10: property(20, at),
    no2: property(10, at),
    o3: property(30, at),
    co: property(300, at),
    so2: property(2, at),
  });
}

/** A TrafficAccident entity document. */
export function accidentDoc(
  id: string,
  lon: number,
  lat: number,
  t: number,
  severity: string,
  camera?: string,
) {
  return entity(`urn:ngsi-ld:TrafficAccident:${id}`, "TrafficAccident", {
    timestamp: property(dateTime(new Date(t))),
    location: geoProperty(point(lon, lat)),
    severity: property(severity),
    status: property("active"),
    vehiclesInvolved: property(2),
    injuries: property(1),
    fatalities: property(0),
    confidence: property(0.9),
    detectionMethod: property("camera_vision"),
    refCamera: camera ? relationship(`urn:ngsi-ld:TrafficCamera:${camera}`) : undefined,
  });
}
