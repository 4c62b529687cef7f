import { congestionIndex } from "../flow/congestion";
import type { FlowRollup } from "../flow/flow-rollup";
import type { CongestionArea } from "../models";
import type { TrafficProjection } from "../projection/traffic-projection";

/**
 * The numeric congestion of a congested area (variant B's `congestion_level`): 100 x (1 - mean ratio
 * of its cameras' current speed to their free-flow speed), the index {@link congestionIndex} gives a
 * zone.
 */
export function areaCongestionIndex(
  area: CongestionArea,
  projection: TrafficProjection,
  rollup: FlowRollup,
): number {
  let ratio = 0;
  let n = 0;
  for (const id of area.cameraIds) {
    const f = projection.flows.get(id);
    const ff = rollup.freeFlow.get(id) ?? 0;
    if (!f || !(ff > 0)) continue;
    ratio += Math.min(1, f.averageSpeed / ff);
    n++;
  }
  return n ? congestionIndex(ratio / n, 1) : 0;
}
