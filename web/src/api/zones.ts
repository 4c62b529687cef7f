import { queryAll, type Geometry } from "./ngsi";
import { realtime } from "./rest-a";

/** Congestion levels of variant A, free flowing to standstill (docs/rest.md). */
export const LEVELS = ["free", "light", "moderate", "heavy", "severe"] as const;
export type Level = (typeof LEVELS)[number];

/** A traffic zone (a district) with its current state. */
export interface Zone {
  id: string;
  /** The zone id of the REST faces: the district's local id (`quan-1`). */
  zoneId: string;
  name: string;
  geometry: Geometry;
  level?: Level;
  avgSpeed?: number;
  vehicleCount?: number;
  cameras?: number;
}

interface DistrictEntity {
  id: string;
  name?: string;
  location?: Geometry;
}

/** The districts' polygons (NGSI-LD `type=District`); they do not change while the page is open. */
export async function listZoneShapes(signal?: AbortSignal): Promise<Zone[]> {
  const districts = await queryAll<DistrictEntity>({ type: "District", attrs: "name,location" }, signal);
  return districts
    .filter((d) => d.location)
    .map((d) => ({
      id: d.id,
      zoneId: d.id.slice(d.id.lastIndexOf(":") + 1),
      name: d.name ?? d.id,
      geometry: d.location!,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, "vi"));
}

/** The current state of every zone, by district id (`GET /v1/traffic/realtime`). */
export async function zoneStates(): Promise<
  Map<string, Pick<Zone, "level" | "avgSpeed" | "vehicleCount" | "cameras">>
> {
  const out = new Map<string, Pick<Zone, "level" | "avgSpeed" | "vehicleCount" | "cameras">>();
  for (const z of await realtime()) {
    out.set(`urn:ngsi-ld:District:${z.id}`, {
      level: (LEVELS as readonly string[]).includes(z.congestion_level)
        ? (z.congestion_level as Level)
        : undefined,
      avgSpeed: z.avg_speed,
      vehicleCount: z.vehicle_count,
      cameras: z.cameras_reporting,
    });
  }
  return out;
}
