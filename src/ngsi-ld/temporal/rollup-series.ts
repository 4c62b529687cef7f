import { searchRows } from "./strided-search";

/** Length of a day bucket (UTC days). */
export const DAY_MS = 86_400_000;

/** Numbers per bucket: start, length, count, numbers, sum, sumsq, min, max, distinct, template id. */
const STRIDE = 10;

/**
 * One aggregate of an attribute's instances over an hour or a day (ETSI GS CIM 009 v1.8 §4.5.19 functions
 * that combine exactly: totalCount, sum, sumsq, min, max, and avg / stddev from them). `distinct` is the
 * distinct values seen in the bucket; buckets merged into a longer one keep the largest (a lower bound).
 * `tpl` is the Interner id of the instances' shape without value (`type`, `datasetId`, `unitCode`).
 */
export interface Bucket {
  start: number;
  len: number;
  count: number;
  /** Instances with a numeric value. */
  numbers: number;
  sum: number;
  sumsq: number;
  min: number;
  max: number;
  distinct: number;
  tpl: number;
}

/**
 * The aggregates that retention keeps of one attribute once its raw instances left the window, sorted by
 * start (and template), in one flat array of doubles like {@link Series}: hourly buckets for the hourly
 * window, then daily buckets. {@link add} merges into the bucket of the same start, length and template.
 */
export class RollupSeries {
  length = 0;
  private d: number[] = [];

  start(i: number): number {
    return this.d[i * STRIDE];
  }

  len(i: number): number {
    return this.d[i * STRIDE + 1];
  }

  tpl(i: number): number {
    return this.d[i * STRIDE + 9];
  }

  bucket(i: number): Bucket {
    const d = this.d;
    const o = i * STRIDE;
    return {
      start: d[o],
      len: d[o + 1],
      count: d[o + 2],
      numbers: d[o + 3],
      sum: d[o + 4],
      sumsq: d[o + 5],
      min: d[o + 6],
      max: d[o + 7],
      distinct: d[o + 8],
      tpl: d[o + 9],
    };
  }

  /** Adds `b`, merged into the bucket of the same start, length and template when there is one. */
  add(b: Bucket): void {
    let at = this.lowerBound(b.start);
    for (; at < this.length && this.start(at) === b.start; at++) {
      if (this.len(at) !== b.len || this.tpl(at) !== b.tpl) continue;
      const o = at * STRIDE;
      const d = this.d;
      d[o + 2] += b.count;
      d[o + 3] += b.numbers;
      d[o + 4] += b.sum;
      d[o + 5] += b.sumsq;
      d[o + 6] = Math.min(d[o + 6], b.min);
      d[o + 7] = Math.max(d[o + 7], b.max);
      d[o + 8] = Math.max(d[o + 8], b.distinct);
      return;
    }
    const row = [b.start, b.len, b.count, b.numbers, b.sum, b.sumsq, b.min, b.max, b.distinct, b.tpl];
    this.d.splice(at * STRIDE, 0, ...row);
    this.length++;
  }

  /** Removes the buckets [from, to) and returns them. */
  take(from: number, to: number): Bucket[] {
    const out: Bucket[] = [];
    for (let i = from; i < to; i++) out.push(this.bucket(i));
    if (to > from) {
      this.d.splice(from * STRIDE, (to - from) * STRIDE);
      this.length -= to - from;
    }
    return out;
  }

  /** Indexes of the buckets of length `len` that start before `t`. */
  before(t: number, len: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.length && this.start(i) < t; i++) if (this.len(i) === len) out.push(i);
    return out;
  }

  /** Removes the buckets at `idx` (ascending) and returns them. */
  takeAt(idx: number[]): Bucket[] {
    const out: Bucket[] = [];
    for (let k = idx.length - 1; k >= 0; k--) out.unshift(...this.take(idx[k], idx[k] + 1));
    return out;
  }

  /** First index whose start is >= t. */
  lowerBound(t: number): number {
    return searchRows(this.d, this.length, STRIDE, t);
  }

  /** Bytes the buckets hold (8 per number). */
  bytes(): number {
    return this.length * STRIDE * 8;
  }
}

/** An empty bucket of [start, start + len) with template `tpl`, to add instances to. */
export function emptyBucket(start: number, len: number, tpl: number): Bucket {
  return {
    start,
    len,
    count: 0,
    numbers: 0,
    sum: 0,
    sumsq: 0,
    min: Infinity,
    max: -Infinity,
    distinct: 0,
    tpl,
  };
}
