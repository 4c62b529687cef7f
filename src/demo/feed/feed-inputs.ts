import { loadCameraRecords, type CameraRecord } from "../seed/camera-records";
import { loadDistricts, type DistrictRecord } from "../seed/districts";
import { locateCameras } from "../seed/seed-entities";
import type { FeedCamera } from "./feed-camera";

/** The feed's cameras from the dataset: active cameras with their district and real readings. */
export function loadFeedCameras(
  records: readonly CameraRecord[] = loadCameraRecords(),
  districts: readonly DistrictRecord[] = loadDistricts(),
): FeedCamera[] {
  return locateCameras(records, districts)
    .filter((c) => c.record.status === "success")
    .map(({ record: r, district }) => ({
      id: r.id,
      lon: r.longitude,
      lat: r.latitude,
      districtSlug: district?.slug,
      districtName: district?.name,
      weather: r.weather,
      airQuality: r.air_quality,
      readingTime: r.enrichment_timestamp,
    }));
}
