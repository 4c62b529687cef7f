import { requestJson } from "./http";

/** An active alert (interface spec §2 "Alert and alert subscription"). */
export interface Alert {
  id: string;
  type: string;
  severity: string;
  location?: { lat: number; lon: number; address?: string };
  message: string;
  timestamp: string;
}

/** `GET /v1/alerts/active` (interface spec §4.7). */
export async function activeAlerts(): Promise<Alert[]> {
  return (await requestJson<{ alerts: Alert[] }>("/v1/alerts/active")).alerts;
}
