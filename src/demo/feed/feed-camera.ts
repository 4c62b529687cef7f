import type { AirQualityReading, WeatherReading } from "../seed/camera-records";

/** What the feed needs to know about one camera. */
export interface FeedCamera {
  /** Camera id of the dataset ("0".."722"); the entity ids derive from it. */
  id: string;
  lon: number;
  lat: number;
  /** District slug (urn:ngsi-ld:District:<slug>), if the camera lies in one. */
  districtSlug?: string;
  /** District name, e.g. "Quận 1" (names the stations). */
  districtName?: string;
  /** The real OpenWeatherMap readings at this camera (start values of the stations). */
  weather?: WeatherReading;
  airQuality?: AirQualityReading;
  /** When those readings were taken (ISO 8601). */
  readingTime?: string;
}
