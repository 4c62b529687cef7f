import {
  dateTime,
  entity,
  geoProperty,
  point,
  property,
  relationship,
} from "../../../src/demo/seed/ngsi-ld-doc";

/** Upserts entity documents (with @context) through the broker's NGSI-LD batch API. */
export { upsert as upsertDocs } from "./traffic-fixture";

/** A camera's place, as the lists show it. */
export interface CamPlace {
  id: string;
  lat: number;
  lon: number;
}

/** A TrafficFlowObserved of camera `cam` for the `minutes` ending at `t`. */
export function flowDocB(cam: CamPlace, t: number, count: number, speed: number, minutes = 5) {
  const at = { observedAt: new Date(t).toISOString() };
  const moto = Math.round(count * 0.7);
  const car = Math.round(count * 0.2);
  const bus = Math.round(count * 0.04);
  return entity(`urn:ngsi-ld:TrafficFlowObserved:${cam.id}`, "TrafficFlowObserved", {
    location: geoProperty(point(cam.lon, cam.lat)),
    refCamera: relationship(`urn:ngsi-ld:TrafficCamera:${cam.id}`),
    dateObserved: property(dateTime(new Date(t)), at),
    dateObservedFrom: property(dateTime(new Date(t - minutes * 60_000)), at),
    dateObservedTo: property(dateTime(new Date(t)), at),
    intensity: property(count, at),
    motorcycleCount: property(moto, at),
    carCount: property(car, at),
    busCount: property(bus, at),
    truckCount: property(count - moto - car - bus, at),
    averageVehicleSpeed: property(speed, { ...at, unitCode: "KMH" }),
    occupancy: property(0.25, at),
  });
}

/** A WeatherObserved station at `t`. */
export function weatherDocB(
  slug: string,
  lon: number,
  lat: number,
  t: number,
  temperature: number,
  cloudiness: number,
) {
  const at = { observedAt: new Date(t).toISOString() };
  return entity(`urn:ngsi-ld:WeatherObserved:${slug}`, "WeatherObserved", {
    name: property(`Station ${slug}`),
    location: geoProperty(point(lon, lat)),
    refDistrict: relationship(`urn:ngsi-ld:District:${slug}`),
    dateObserved: property(dateTime(new Date(t)), at),
    temperature: property(temperature, at),
    feelsLikeTemperature: property(temperature + 2, at),
    relativeHumidity: property(0.75, at),
    atmosphericPressure: property(1009, at),
    windSpeed: property(3, at),
    windDirection: property(120, at),
    precipitation: property(0, at),
    cloudiness: property(cloudiness, at),
    weatherType: property("scattered clouds", at),
  });
}

/** An AirQualityObserved station at `t`. */
export function airDocB(slug: string, lon: number, lat: number, t: number, pm25: number) {
  const at = { observedAt: new Date(t).toISOString() };
  return entity(`urn:ngsi-ld:AirQualityObserved:${slug}`, "AirQualityObserved", {
    name: property(`Air ${slug}`),
    location: geoProperty(point(lon, lat)),
    dateObserved: property(dateTime(new Date(t)), at),
    pm25: property(pm25, at),
    pm10: property(30, at),
    no2: property(15, at),
    o3: property(40, at),
    co: property(400, at),
    so2: property(3, at),
  });
}

/** A TrafficAccident document. */
export function accidentDocB(a: {
  id: string;
  lon: number;
  lat: number;
  t: number;
  severity: string;
  status?: string;
  camera?: string;
  description?: string;
  boxes?: object[];
}) {
  return entity(`urn:ngsi-ld:TrafficAccident:${a.id}`, "TrafficAccident", {
    timestamp: property(dateTime(new Date(a.t))),
    location: geoProperty(point(a.lon, a.lat)),
    severity: property(a.severity),
    status: property(a.status ?? "active"),
    vehiclesInvolved: property(2),
    injuries: property(1),
    fatalities: property(0),
    confidence: property(0.87),
    detectionMethod: property("camera_vision"),
    description: a.description ? property(a.description) : undefined,
    boundingBoxes: a.boxes ? property(a.boxes) : undefined,
    refCamera: a.camera ? relationship(`urn:ngsi-ld:TrafficCamera:${a.camera}`) : undefined,
  });
}

/** A small seeded PRNG (mulberry32), so random test data is the same on every run. */
export { mulberry32 as prng } from "../../../src/demo/feed/prng";
