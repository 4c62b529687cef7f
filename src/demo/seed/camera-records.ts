import * as fs from "node:fs";
import { datasetPath } from "./project-root";

/** One OpenWeatherMap weather reading carried by a camera record (2025-12-07 snapshot). */
export interface WeatherReading {
  temperature: number; // °C
  humidity: number; // %
  pressure: number; // hPa
  description: string;
  wind_speed: number; // m/s
  clouds: number; // %
}

/** One OpenWeatherMap air-pollution reading (µg/m³; aqi_index is OWM's 1..5 scale). */
export interface AirQualityReading {
  pm25: number;
  pm10: number;
  no2: number;
  o3: number;
  co: number;
  so2: number;
  nh3?: number;
  aqi_category?: string;
  aqi_index?: number;
  source?: string;
}

/** A camera as stored in dataset/cameras/hcmc_cameras.ndjson (UIP field names, see dataset/SOURCES.md). */
export interface CameraRecord {
  id: string;
  name: string;
  code: string;
  latitude: number;
  longitude: number;
  ptz: string; // "True" | "False"
  cam_type: string; // tth | tth_axis | generic
  streets: string[];
  image_url_x4: string;
  status: string; // "success" | "error"
  updated_at: string;
  last_refreshed: string;
  enrichment_timestamp?: string;
  weather?: WeatherReading;
  air_quality?: AirQualityReading;
}

/** Reads the 701 cameras of dataset/cameras/hcmc_cameras.ndjson, in file order. */
export function loadCameraRecords(file = datasetPath("cameras", "hcmc_cameras.ndjson")): CameraRecord[] {
  const text = fs.readFileSync(file, "utf8");
  const records: CameraRecord[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as CameraRecord;
    if (typeof r.id !== "string" || !Number.isFinite(r.latitude) || !Number.isFinite(r.longitude)) {
      throw new Error(`bad camera record in ${file}: ${line.slice(0, 80)}`);
    }
    records.push(r);
  }
  return records;
}
