import type { CongestionLevel } from "../models";

/**
 * The congestion label of a speed against the free-flow speed, as traffic-data vendors derive it
 * (TomTom / HERE "jam factor" style: the ratio of current to free-flow speed). Bands: >= 0.85 free,
 * >= 0.7 light, >= 0.5 moderate, >= 0.3 heavy, below severe.
 */
export function congestionLevel(speed: number, freeFlow: number): CongestionLevel {
  if (!(freeFlow > 0)) return "free";
  const r = speed / freeFlow;
  if (r >= 0.85) return "free";
  if (r >= 0.7) return "light";
  if (r >= 0.5) return "moderate";
  if (r >= 0.3) return "heavy";
  return "severe";
}

/** 0 (free flow) .. 100 (standstill). */
export function congestionIndex(speed: number, freeFlow: number): number {
  if (!(freeFlow > 0)) return 0;
  return Math.round(100 * Math.min(1, Math.max(0, 1 - speed / freeFlow)));
}

/** The numeric rank of a level (free 0 .. severe 4), for averaging and comparing. */
export function levelRank(l: CongestionLevel): number {
  return ["free", "light", "moderate", "heavy", "severe"].indexOf(l);
}
