import { queryAll, type Geometry } from "./ngsi";
import { runSparql } from "./sparql";

/** Congestion levels of variant A, free flowing to standstill (decisions.md "Values the spec does not list"). */
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

/** Per district: the cameras' latest flow observations, averaged (SPARQL over the plain view). */
const STATE_QUERY = `PREFIX traffic: <https://w3id.org/citygraph/traffic#>
SELECT ?district (AVG(?speed) AS ?avgSpeed) (SUM(?n) AS ?vehicles) (COUNT(?f) AS ?cameras)
       (AVG(IF(?lvl = "severe", 3, IF(?lvl = "high", 2, IF(?lvl = "moderate", 1, 0)))) AS ?score)
WHERE { ?f a traffic:TrafficFlowObserved ; traffic:refDistrict ?district ; traffic:averageVehicleSpeed ?speed ;
           traffic:intensity ?n ; traffic:congestionLevel ?lvl }
GROUP BY ?district`;

/** The A level of a district from its cameras' mean congestion score (0 low .. 3 severe). */
export function levelOfScore(score: number): Level {
  if (score < 0.4) return "free";
  if (score < 0.9) return "light";
  if (score < 1.4) return "moderate";
  if (score < 2) return "heavy";
  return "severe";
}

/** The current state of every zone that has flow observations, by district id. */
export async function zoneStates(
  signal?: AbortSignal,
): Promise<Map<string, Pick<Zone, "level" | "avgSpeed" | "vehicleCount" | "cameras">>> {
  const table = await runSparql(STATE_QUERY, signal);
  const out = new Map<string, Pick<Zone, "level" | "avgSpeed" | "vehicleCount" | "cameras">>();
  for (const [district, speed, vehicles, cameras, score] of table.rows) {
    out.set(district, {
      level: levelOfScore(Number(score)),
      avgSpeed: Math.round(Number(speed) * 10) / 10,
      vehicleCount: Number(vehicles),
      cameras: Number(cameras),
    });
  }
  return out;
}
