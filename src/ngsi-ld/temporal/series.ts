import { searchRows } from "./strided-search";

/**
 * One stored attribute instance, as the history keeps it (ETSI GS CIM 009 v1.8 §4.5.9 temporal
 * representation: each instance has its value, `observedAt`, `createdAt`, `modifiedAt`, `instanceId`).
 * Times are epoch milliseconds; `rest` is the instance's JSON (names expanded) without the times, the
 * instanceId and, when `num` is a number, without `value`.
 */
export interface InstanceRow {
  iid: number;
  /** observedAt, or NaN when the instance has none. */
  obs: number;
  created: number;
  modified: number;
  /** The value when it is a number, else NaN (then `rest` holds the value). */
  num: number;
  /** Id in the {@link Interner} of the instance's JSON template. */
  rest: number;
  /**
   * Journal seq of the entity write that made the instance (0 or absent: a write of the temporal API,
   * which the store's journal does not hold); what a recovery cuts the history back by.
   */
  js?: number;
}

/**
 * Numbers per row: time, observedAt, createdAt, modifiedAt, numeric value, template id, instance number,
 * journal seq.
 */
const STRIDE = 8;
const TIME = 0;
const OBS = 1;
const CREATED = 2;
const MODIFIED = 3;
const NUM = 4;
const REST = 5;
const IID = 6;
const JS = 7;

/**
 * The columnar history of one attribute of one entity: the rows' times,
 * numeric values, template ids and instance numbers, sorted by the instance's time (observedAt, or
 * modifiedAt when it has none), in one flat array of doubles (row-major, {@link STRIDE} numbers per
 * row; no JS object per instance), so a day of a city's feed fits in memory and lastN / time windows
 * are binary searches.
 *
 * One plain array per series, not one typed array per column: most series hold a handful of rows, and a
 * typed array costs object and buffer headers before its first element, which made the index several
 * times larger (docs/decisions/0002-memory-at-scale.md).
 */
export class Series {
  length = 0;
  private d: number[] = [];

  /** The sort time of a row: observedAt, else modifiedAt. */
  static timeOf(r: InstanceRow): number {
    return Number.isNaN(r.obs) ? r.modified : r.obs;
  }

  /** Sort time of row `i`. */
  time(i: number): number {
    return this.d[i * STRIDE + TIME];
  }

  /** observedAt of row `i` (NaN when none). */
  obs(i: number): number {
    return this.d[i * STRIDE + OBS];
  }

  /** createdAt of row `i`. */
  created(i: number): number {
    return this.d[i * STRIDE + CREATED];
  }

  /** modifiedAt of row `i`. */
  modified(i: number): number {
    return this.d[i * STRIDE + MODIFIED];
  }

  /** Numeric value of row `i` (NaN when the value is not a number). */
  num(i: number): number {
    return this.d[i * STRIDE + NUM];
  }

  /** Template id (Interner) of row `i`. */
  rest(i: number): number {
    return this.d[i * STRIDE + REST];
  }

  /** Instance number of row `i`. */
  iid(i: number): number {
    return this.d[i * STRIDE + IID];
  }

  /** Journal seq of the write that made row `i` (0: a temporal API write). */
  js(i: number): number {
    return this.d[i * STRIDE + JS];
  }

  /** Inserts a row at its place in time order (after rows of equal time). Returns its index. */
  insert(r: InstanceRow): number {
    const t = Series.timeOf(r);
    const row = [t, r.obs, r.created, r.modified, r.num, r.rest, r.iid, r.js ?? 0];
    if (this.length === 0) {
      // an array literal is allocated at its exact size: most series keep one row
      this.d = row;
      this.length = 1;
      return 0;
    }
    const at = this.upperBound(t);
    const d = this.d;
    d.push(...row);
    if (at < this.length) {
      d.copyWithin((at + 1) * STRIDE, at * STRIDE, this.length * STRIDE);
      for (let k = 0; k < STRIDE; k++) d[at * STRIDE + k] = row[k];
    }
    this.length++;
    return at;
  }

  /** The row at index `i`. */
  row(i: number): InstanceRow {
    return {
      iid: this.iid(i),
      obs: this.obs(i),
      created: this.created(i),
      modified: this.modified(i),
      num: this.num(i),
      rest: this.rest(i),
      js: this.js(i),
    };
  }

  /** Index of the row with instance number `iid`, or -1. */
  indexOf(iid: number): number {
    for (let i = 0; i < this.length; i++) if (this.d[i * STRIDE + IID] === iid) return i;
    return -1;
  }

  /** Removes rows [from, to). */
  removeRange(from: number, to: number): void {
    if (to <= from) return;
    this.d.copyWithin(from * STRIDE, to * STRIDE, this.length * STRIDE);
    this.length -= to - from;
    this.d.length = this.length * STRIDE;
  }

  /** Drops every row whose time is before `t`; returns how many. */
  dropBefore(t: number): number {
    const n = this.lowerBound(t);
    this.removeRange(0, n);
    return n;
  }

  /** First index whose time is >= t. */
  lowerBound(t: number): number {
    return searchRows(this.d, this.length, STRIDE, t);
  }

  /** First index whose time is > t. */
  upperBound(t: number): number {
    return searchRows(this.d, this.length, STRIDE, t, true);
  }

  /** Bytes the rows hold (8 per number; the array's growth slack and headers not counted). */
  bytes(): number {
    return this.length * STRIDE * 8;
  }
}
