import type { HistoryReader } from "../../../../src/domain/traffic/projection/history-reader";
import type { TrafficProjection } from "../../../../src/domain/traffic/projection/traffic-projection";
import type { Accident } from "../../../../src/domain/traffic";

export const MIN = 60_000;
/** 08:00 in Ho Chi Minh City. */
export const T0 = Date.UTC(2026, 10, 25, 1, 0);

/** A history of one flow entity: a sample per minute for two hours, speed 40 then 10 in the second hour. */
export function fakeHistory(): HistoryReader {
  const samples: Record<string, [number, number][]> = {};
  for (let k = 1; k <= 120; k++) {
    const t = T0 + k * MIN;
    const put = (term: string, v: number) => (samples[term] ??= []).push([t, v]);
    put("intensity", 10);
    put("carCount", 3);
    put("motorcycleCount", 7);
    put("truckCount", 0);
    put("busCount", 0);
    put("averageVehicleSpeed", k <= 60 ? 40 : 10);
    put("occupancy", 0.5);
  }
  return {
    forEach: (_id: string, term: string, from: number, to: number, f: (t: number, v: number) => void) => {
      for (const [t, v] of samples[term] ?? []) if (t >= from && t < to) f(t, v);
    },
  } as unknown as HistoryReader;
}

/** A projection with the flow entity of camera "cam" and no accident. */
export const fakeProjection = {
  flowEntities: new Map([["cam", "urn:ngsi-ld:TrafficFlowObserved:cam"]]),
  accidentList: () => [] as Accident[],
} as unknown as TrafficProjection;
