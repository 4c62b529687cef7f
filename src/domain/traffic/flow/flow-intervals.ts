import type { HistoryReader } from "../projection/history-reader";
import type { TrafficProjection } from "../projection/traffic-projection";

/** The aggregation steps of the flow series (docs/rest.md "Traffic", `interval`). */
export const FLOW_INTERVALS = { "1m": 60_000, "5m": 300_000, "15m": 900_000, "1h": 3_600_000 } as const;
export type FlowInterval = keyof typeof FLOW_INTERVALS;

/** One aggregated TrafficFlowObserved window of a camera. */
export interface FlowWindow {
  /** NGSI-LD id of the aggregate: the camera's flow entity id, the interval and the window start. */
  entityId: string;
  cameraId: string;
  from: number;
  to: number;
  /** Vehicles counted in the window (sum of the observations). */
  intensity: number;
  /** Mean of the observations' average speeds (km/h). */
  averageSpeed: number;
  vehicleTypes: { car: number; motorcycle: number; truck: number; bus: number };
  /** Mean occupancy (0..1). */
  occupancy: number;
  /** Number of observations aggregated. */
  observations: number;
}

/** Attributes read from the history: counts are summed, speed and occupancy averaged. */
const SUMMED = ["intensity", "carCount", "motorcycleCount", "truckCount", "busCount"] as const;
const AVERAGED = ["averageVehicleSpeed", "occupancy"] as const;

/** Most windows one answer holds (a day at one minute is 1,440). */
export const MAX_FLOW_WINDOWS = 10_080;

/**
 * A camera's TrafficFlowObserved history aggregated into windows of 1 minute to 1 hour, read from
 * the temporal history (each observation counts in the window holding the end of its observed span).
 * Windows without an observation are left out.
 */
export class FlowIntervals {
  constructor(
    private readonly projection: TrafficProjection,
    private readonly history: HistoryReader,
  ) {}

  /** The windows of [from, to) at `interval`, oldest first; [] for a camera with no flow entity. */
  windows(cameraId: string, from: number, to: number, interval: FlowInterval): FlowWindow[] {
    const flowId = this.projection.flowEntities.get(cameraId);
    if (!flowId) return [];
    const step = FLOW_INTERVALS[interval];
    const first = Math.floor(from / step) * step;
    const n = Math.min(MAX_FLOW_WINDOWS, Math.max(0, Math.ceil((to - first) / step)));
    const sums: Record<string, Float64Array> = {};
    const counts: Record<string, Uint32Array> = {};
    for (const term of [...SUMMED, ...AVERAGED]) {
      const s = (sums[term] = new Float64Array(n));
      const c = (counts[term] = new Uint32Array(n));
      // an observation at t covers (t - span, t]: it belongs to the window holding t - 1 ms
      this.history.forEach(flowId, term, from + 1, to + 1, (t, v) => {
        const k = Math.floor((t - 1 - first) / step);
        if (k < 0 || k >= n) return;
        s[k] += v;
        c[k]++;
      });
    }
    const out: FlowWindow[] = [];
    const tag = interval;
    for (let k = 0; k < n; k++) {
      const obs = counts.intensity[k];
      if (obs === 0) continue;
      const start = first + k * step;
      const mean = (term: string) => (counts[term][k] ? sums[term][k] / counts[term][k] : 0);
      out.push({
        entityId: `${flowId}:${tag}:${new Date(start).toISOString().replace(/[-:]|\.000/g, "")}`,
        cameraId,
        from: start,
        to: start + step,
        intensity: Math.round(sums.intensity[k]),
        averageSpeed: Math.round(mean("averageVehicleSpeed") * 10) / 10,
        vehicleTypes: {
          car: Math.round(sums.carCount[k]),
          motorcycle: Math.round(sums.motorcycleCount[k]),
          truck: Math.round(sums.truckCount[k]),
          bus: Math.round(sums.busCount[k]),
        },
        occupancy: Math.round(mean("occupancy") * 1000) / 1000,
        observations: obs,
      });
    }
    return out;
  }
}
