import type { Series } from "./series";
import { inWindow, type TemporalQuery } from "./temporal-query";

/** Rows of one attribute picked by a temporal query, in time order, with the time each was picked by. */
export interface Picked {
  idx: number[];
  times: number[];
}

/**
 * The rows of `s` inside the query's window on its `timeproperty` (ETSI GS CIM 009 v1.8 §4.11), kept by
 * `keep` (e.g. a datasetId filter), in ascending time. On observedAt (the series' sort key) this is two
 * binary searches; on createdAt/modifiedAt a scan and a sort; on deletedAt (the modifiedAt of the
 * instances that record a deletion, which `keep` must pick out) likewise. `lastN` keeps the most recent N.
 */
export function selectRows(s: Series, q: TemporalQuery, keep?: (i: number) => boolean): Picked {
  const idx: number[] = [];
  const times: number[] = [];
  if (q.timeproperty === "observedAt") {
    let from = 0;
    let to = s.length;
    if (q.timerel === "before") to = s.lowerBound(q.timeAt as number);
    else if (q.timerel === "after") from = s.lowerBound(q.timeAt as number);
    else if (q.timerel === "between") {
      from = s.lowerBound(q.timeAt as number);
      to = s.lowerBound(q.endTimeAt as number);
    }
    for (let i = from; i < to; i++) {
      if (Number.isNaN(s.obs(i)) || (keep && !keep(i))) continue;
      idx.push(i);
      times.push(s.obs(i));
    }
  } else {
    const col = q.timeproperty === "createdAt" ? (i: number) => s.created(i) : (i: number) => s.modified(i);
    const all: number[] = [];
    for (let i = 0; i < s.length; i++) if (inWindow(q, col(i)) && (!keep || keep(i))) all.push(i);
    all.sort((a, b) => col(a) - col(b));
    for (const i of all) {
      idx.push(i);
      times.push(col(i));
    }
  }
  if (q.lastN !== undefined && idx.length > q.lastN) {
    idx.splice(0, idx.length - q.lastN);
    times.splice(0, times.length - q.lastN);
  }
  return { idx, times };
}

/** The range a cut page covers (ETSI GS CIM 009 v1.8 §6.3.10 `Content-Range: date-time start-end/size`). */
export interface PageRange {
  start: number;
  end: number;
  /** lastN when given, else unknown ("*"). */
  size: number | "*";
}

/**
 * Temporal pagination (§6.3.10): at most `limit` instances per attribute. Without lastN the page holds the
 * oldest instances, cut at the earliest time where one attribute was cut, so no attribute misses data
 * before the range end; with lastN the newest, cut symmetrically. Returns the range when anything was
 * cut (the answer is then 206), after removing the rows past the cut from `picked` in place.
 */
export function paginate(picked: Picked[], q: TemporalQuery, limit: number): PageRange | undefined {
  const newest = q.lastN !== undefined;
  let cut: number | undefined;
  for (const p of picked) {
    if (p.idx.length <= limit) continue;
    const t = newest ? p.times[p.times.length - limit] : p.times[limit - 1];
    cut = cut === undefined ? t : newest ? Math.max(cut, t) : Math.min(cut, t);
  }
  if (cut === undefined) return undefined;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of picked) {
    const keep = p.times.map((t) => (newest ? t >= (cut as number) : t <= (cut as number)));
    p.idx = p.idx.filter((_, k) => keep[k]);
    p.times = p.times.filter((_, k) => keep[k]);
    if (p.times.length) {
      lo = Math.min(lo, p.times[0]);
      hi = Math.max(hi, p.times[p.times.length - 1]);
    }
  }
  if (newest) {
    const start =
      q.timerel === "before" ? (q.timeAt as number) : q.timerel === "between" ? (q.endTimeAt as number) : hi;
    return { start, end: cut, size: q.lastN as number };
  }
  const start = q.timerel === "after" || q.timerel === "between" ? (q.timeAt as number) : lo;
  return { start, end: cut, size: "*" };
}
