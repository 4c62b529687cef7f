/**
 * One instance as written to the history log: attribute IRI, instance number, observedAt (null when
 * absent), createdAt, modifiedAt (epoch ms), numeric value (null when the value is not a number), the
 * instance's JSON template (names expanded; see {@link InstanceRow}) and, for an instance an entity write
 * made, that write's journal seq (absent for writes of the temporal API).
 */
export type RowTuple = [
  attr: string,
  iid: number,
  obs: number | null,
  created: number,
  modified: number,
  num: number | null,
  rest: string,
  js?: number,
];

/**
 * A record of the temporal history log (ETSI GS CIM 009 v1.8 §5.6.11 to §5.6.16 as changes of state):
 * `put` appends instances to an entity's history (creating it, updating its types/scope; `sc` null: the
 * scope was deleted), `delEntity`
 * (§5.6.13), `delAttr` (§5.6.15; `ds` undefined = default instances, `all` = every dataset), `delInst`
 * (§5.6.16) and `modInst` (§5.6.15 modify an instance) change it. Tenant `t`, entity id `e`.
 * `seal` says the graph copy of segment `h` (its start, epoch ms) was written as of version `v` (see
 * SegmentLedger); `hours` (written by compaction) sets the entity's not yet sealed segments.
 * `roll` is one retention step of an entity ({@link RollupRecord}); `aggs` (written by compaction) sets
 * the aggregates of one attribute.
 */
export type HistoryRecord =
  | { op: "put"; t: string; e: string; ty?: string[]; sc?: unknown; at: number; r: RowTuple[] }
  | { op: "delEntity"; t: string; e: string }
  | { op: "delAttr"; t: string; e: string; a: string; ds?: string; all?: boolean }
  | { op: "delInst"; t: string; e: string; a: string; n: number }
  | { op: "modInst"; t: string; e: string; a: string; n: number; r: RowTuple }
  | { op: "seal"; t: string; e: string; h: number; v: number }
  | { op: "hours"; t: string; e: string; hs: [number, number][] }
  | RollupRecord
  | { op: "aggs"; t: string; e: string; a: string; b: BucketTuple[] };

/**
 * One retention step of entity `e` (rollup.ts): raw instances before `raw` become hourly aggregates,
 * hourly aggregates before `hour` daily ones, and everything before `drop` (0 = nothing) goes. Applying it
 * is a function of the entity's history, so the record holds only the cuts.
 */
export interface RollupRecord {
  op: "roll";
  t: string;
  e: string;
  raw: number;
  hour: number;
  drop: number;
}

/**
 * An aggregate bucket in the log: start, length (ms), count, numeric count, sum, sumsq, min, max (null
 * without numbers), distinct count and the instances' shape as JSON (`type`, `datasetId`, `unitCode`).
 */
export type BucketTuple = [
  start: number,
  len: number,
  count: number,
  numbers: number,
  sum: number,
  sumsq: number,
  min: number | null,
  max: number | null,
  distinct: number,
  tpl: string,
];
