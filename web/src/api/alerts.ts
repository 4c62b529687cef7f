import { requestJson } from "./http";

/** An active alert (docs/reports-and-alerts.md). */
export interface Alert {
  id: string;
  type: string;
  severity: string;
  location?: { lat: number; lon: number; address?: string };
  message: string;
  timestamp: string;
}

/** `GET /v1/alerts/active` (docs/reports-and-alerts.md). */
export async function activeAlerts(): Promise<Alert[]> {
  return (await requestJson<{ alerts: Alert[] }>("/v1/alerts/active")).alerts;
}
