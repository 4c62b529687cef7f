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
}

const INITIAL = 8;

/**
 * The columnar history of one attribute of one entity (issue 5 "history layout"): typed arrays of
 * times, numeric values, template ids and instance numbers, sorted by the instance's time (observedAt,
 * or modifiedAt when it has none). 52 bytes per instance plus growth slack (x1.5), no JS object per
 * instance, so a day of a city's feed fits in memory and lastN / time windows are binary searches.
 */
export class Series {
  length = 0;
  time = new Float64Array(INITIAL);
  obs = new Float64Array(INITIAL);
  created = new Float64Array(INITIAL);
  modified = new Float64Array(INITIAL);
  num = new Float64Array(INITIAL);
  rest = new Uint32Array(INITIAL);
  iid = new Float64Array(INITIAL);

  /** The sort time of a row: observedAt, else modifiedAt. */
  static timeOf(r: InstanceRow): number {
    return Number.isNaN(r.obs) ? r.modified : r.obs;
  }

  /** Inserts a row at its place in time order (after rows of equal time). Returns its index. */
  insert(r: InstanceRow): number {
    if (this.length === this.time.length) this.grow();
    const t = Series.timeOf(r);
    const at = this.upperBound(t);
    if (at < this.length) {
      for (const a of this.arrays()) a.copyWithin(at + 1, at, this.length);
    }
    this.time[at] = t;
    this.obs[at] = r.obs;
    this.created[at] = r.created;
    this.modified[at] = r.modified;
    this.num[at] = r.num;
    this.rest[at] = r.rest;
    this.iid[at] = r.iid;
    this.length++;
    return at;
  }

  /** The row at index `i`. */
  row(i: number): InstanceRow {
    return {
      iid: this.iid[i],
      obs: this.obs[i],
      created: this.created[i],
      modified: this.modified[i],
      num: this.num[i],
      rest: this.rest[i],
    };
  }

  /** Index of the row with instance number `iid`, or -1. */
  indexOf(iid: number): number {
    for (let i = 0; i < this.length; i++) if (this.iid[i] === iid) return i;
    return -1;
  }

  /** Removes rows [from, to). */
  removeRange(from: number, to: number): void {
    if (to <= from) return;
    for (const a of this.arrays()) a.copyWithin(from, to, this.length);
    this.length -= to - from;
  }

  /** Drops every row whose time is before `t`; returns how many. */
  dropBefore(t: number): number {
    const n = this.lowerBound(t);
    this.removeRange(0, n);
    return n;
  }

  /** First index whose time is >= t. */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.time[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index whose time is > t. */
  upperBound(t: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.time[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Bytes the arrays hold (allocated, not only used). */
  bytes(): number {
    return this.time.length * (6 * 8 + 4);
  }

  private arrays(): (Float64Array | Uint32Array)[] {
    return [this.time, this.obs, this.created, this.modified, this.num, this.rest, this.iid];
  }

  private grow(): void {
    const cap = Math.ceil(this.time.length * 1.5);
    const f = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    this.time = f(this.time);
    this.obs = f(this.obs);
    this.created = f(this.created);
    this.modified = f(this.modified);
    this.num = f(this.num);
    this.iid = f(this.iid);
    const r = new Uint32Array(cap);
    r.set(this.rest);
    this.rest = r;
  }
}
