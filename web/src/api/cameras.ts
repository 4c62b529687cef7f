import { dateTime, getEntity, queryAll, type DateTimeValue } from "./ngsi";

/** Camera status (docs/rest.md). */
export type CameraStatus = "active" | "inactive" | "error";

/** A camera as the map shows it. */
export interface Camera {
  id: string;
  name: string;
  status: CameraStatus;
  lat: number;
  lon: number;
  district?: string;
  code?: string;
}

interface CameraEntity {
  id: string;
  name?: string;
  code?: string;
  status?: string;
  refDistrict?: string;
  location?: { coordinates: [number, number] };
}

/** Every camera, from the NGSI-LD face (`type=TrafficCamera`, the attributes the map needs). */
export async function listCameras(signal?: AbortSignal): Promise<Camera[]> {
  const entities = await queryAll<CameraEntity>(
    { type: "TrafficCamera", attrs: "name,code,status,location,refDistrict" },
    signal,
  );
  return entities
    .filter((e) => e.location)
    .map((e) => ({
      id: e.id,
      name: e.name ?? e.id,
      code: e.code,
      status: (["active", "inactive", "error"].includes(e.status ?? "")
        ? e.status
        : "inactive") as CameraStatus,
      lon: e.location!.coordinates[0],
      lat: e.location!.coordinates[1],
      district: e.refDistrict,
    }));
}

/** The latest traffic a camera saw (its TrafficFlowObserved entity). */
export interface CameraTraffic {
  observedAt?: string;
  vehicles?: number;
  averageSpeed?: number;
  occupancy?: number;
  congestionLevel?: string;
}

interface FlowEntity {
  dateObserved?: DateTimeValue;
  intensity?: number;
  averageVehicleSpeed?: number;
  occupancy?: number;
  congestionLevel?: string;
}

/** The camera's latest flow observation (`urn:ngsi-ld:TrafficFlowObserved:<camera local id>`), if any. */
export async function cameraTraffic(cameraId: string): Promise<CameraTraffic | undefined> {
  const local = cameraId.slice(cameraId.lastIndexOf(":") + 1);
  const flow = await getEntity<FlowEntity>("TrafficFlowObserved", `urn:ngsi-ld:TrafficFlowObserved:${local}`);
  if (!flow) return undefined;
  return {
    observedAt: dateTime(flow.dateObserved),
    vehicles: flow.intensity,
    averageSpeed: flow.averageVehicleSpeed,
    occupancy: flow.occupancy,
    congestionLevel: flow.congestionLevel,
  };
}
