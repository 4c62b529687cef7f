import { requestJson } from "./http";

/** One forecast item (docs/rest.md). */
export interface ForecastItem {
  timestamp: string;
  predicted_congestion: string;
  predicted_speed: number;
  confidence: number;
}

/** A zone's forecast for the next `hours` (`GET /v1/traffic/forecast`, docs/rest.md). */
export async function zoneForecast(zoneId: string, hours = 24): Promise<ForecastItem[]> {
  const qs = new URLSearchParams({ zone_id: zoneId, hours: String(hours) });
  const body = await requestJson<{ forecast: ForecastItem[] }>(`/v1/traffic/forecast?${qs}`);
  return body.forecast;
}
