import { requestJson } from "./http";
import { localId } from "../ui/dom";

/** `GET /v1/cameras/{id}` (docs/rest.md): the camera with its detail statistics. */
export interface CameraDetail {
  id: string;
  name: string;
  status: string;
  last_update: string;
  district?: { id: string; name: string } | null;
  capabilities: string[];
  statistics?: { uptime_24h: number; detections_today: number; avg_vehicle_count: number };
}

/** A camera's detail by its NGSI-LD id (REST ids are the local part). */
export function cameraDetail(cameraId: string): Promise<CameraDetail> {
  return requestJson<CameraDetail>(`/v1/cameras/${encodeURIComponent(localId(cameraId))}`);
}

/** The path of a camera's latest JPEG (`GET /v1/cameras/{id}/latest-image`). */
export function latestImagePath(cameraId: string): string {
  return `/v1/cameras/${encodeURIComponent(localId(cameraId))}/latest-image`;
}

/** One event of an accident's timeline (docs/rest.md, Accident `timeline`). */
export interface TimelineEvent {
  timestamp: string;
  event: string;
  description: string;
}

/** `GET /v1/accidents/{id}`: the accident's timeline, by its NGSI-LD id. */
export async function accidentTimeline(accidentId: string): Promise<TimelineEvent[]> {
  const a = await requestJson<{ timeline?: TimelineEvent[] }>(
    `/v1/accidents/${encodeURIComponent(localId(accidentId))}`,
  );
  return a.timeline ?? [];
}

/** A district's state in `GET /v1/traffic/realtime` (docs/rest.md). */
export interface ZoneState {
  id: string;
  name: string;
  congestion_level: string;
  avg_speed: number;
  vehicle_count: number;
  incident_count: number;
  cameras_reporting?: number;
}

/** Every zone's current state. */
export async function realtime(): Promise<ZoneState[]> {
  return (await requestJson<{ zones: ZoneState[] }>("/v1/traffic/realtime")).zones;
}

/** A congested area of `GET /v1/traffic/congestion-zones`: its polygon's vertices are `[lat, lon]`. */
export interface CongestionArea {
  id: string;
  name: string;
  zone_id?: string | null;
  level: string;
  polygon: [number, number][];
  avg_speed?: number;
}

/** The congested areas now. */
export async function congestionZones(): Promise<CongestionArea[]> {
  return (await requestJson<{ zones: CongestionArea[] }>("/v1/traffic/congestion-zones")).zones;
}
