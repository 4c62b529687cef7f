import { ntIri, ntIriOnce, ntLine, ntLiteral } from "../../rdf/ntriples/write";
import { RDF_JSON, XSD_DATETIME, XSD_DOUBLE, XSD_INTEGER } from "../../rdf/vocab";
import { HISTORY_GRAPH_PREFIX } from "../../store/graph-store";
import { DAY_MS } from "./rollup-series";
import { AttributeColumns } from "./segment-columns";
import { SEGMENT_MS } from "./segment-ledger";
import type { TemporalEntity, TemporalIndex } from "./temporal-index";

/** Namespace of the terms of the history segments (prefix `cgh:` in the docs). */
export const HISTORY_NS = "https://w3id.org/citygraph/history#";
const P_ENTITY = `${HISTORY_NS}entity`;
const P_START = `${HISTORY_NS}start`;
const P_END = `${HISTORY_NS}end`;
const P_COUNT = `${HISTORY_NS}count`;
const P_INSTANCES = `${HISTORY_NS}instances`;
const P_AGGREGATES = `${HISTORY_NS}aggregates`;

/** Hour starts (and ends) already written as text: a sweep seals many entities' segments of the same few hours. */
const isoOfHour = new Map<number, string>();

/** `t` as an xsd:dateTime in UTC without a zero millisecond part, memoized (few distinct hours). */
function iso(t: number): string {
  let s = isoOfHour.get(t);
  if (s === undefined) {
    if (isoOfHour.size >= 4096) isoOfHour.clear();
    isoOfHour.set(t, (s = new Date(t).toISOString().replace(".000Z", "Z")));
  }
  return s;
}

/**
 * The graph IRI (and subject) of the history segment of entity `id` starting at `start`:
 * `urn:citygraph:history:2026-11-21T10:00:00Z:urn:ngsi-ld:TrafficFlowObserved:cam1` (the hour first, so
 * an entity id holding any IRI character never makes it ambiguous).
 */
export function segmentGraphIri(id: string, start: number): string {
  return `${HISTORY_GRAPH_PREFIX}${iso(start)}:${id}`;
}

/**
 * The graph IRI (and subject) of the daily aggregates of entity `id` for the UTC day starting at `day`:
 * `urn:citygraph:history:2026-11-21T00:00:00Z/P1D:urn:ngsi-ld:TrafficFlowObserved:cam1`.
 */
export function dayGraphIri(id: string, day: number): string {
  return `${HISTORY_GRAPH_PREFIX}${iso(day)}/P1D:${id}`;
}

/** Per attribute: count and the sum of the default-dataset numbers (for the `<attribute> avg` triple). */
interface Totals {
  count: number;
  sums: Map<string, { sum: number; n: number }>;
}

function addSum(t: Totals, attr: string, sum: number, n: number): void {
  if (n === 0) return;
  const a = t.sums.get(attr);
  if (a) {
    a.sum += sum;
    a.n += n;
  } else t.sums.set(attr, { sum, n });
}

/**
 * The N-Triples of the history segment of `e` for the hour from `start` (docs/architecture.md "Temporal
 * history in the graph"), or null when the hour holds nothing (the graph is then dropped). Subject = graph
 * = {@link segmentGraphIri}; triples: `cgh:entity`, `cgh:start`, `cgh:end`, `cgh:count` (instances of
 * every attribute), one `<attribute> avg` per attribute with numeric default-dataset instances (the hourly
 * mean, like the entity's plain value triples), `cgh:instances`: every raw instance of the hour, lossless,
 * as one rdf:JSON literal (ETSI GS CIM 009 v1.8 §4.5.9 members: value, observedAt, createdAt, modifiedAt,
 * instanceId, datasetId and sub-attributes in the template), and `cgh:aggregates` once retention folded
 * the hour's instances into hourly aggregates ({@link aggregatesJson}).
 */
export function segmentTriples(index: TemporalIndex, e: TemporalEntity, start: number): string | null {
  const end = start + SEGMENT_MS;
  const s = ntIriOnce(segmentGraphIri(e.id, start)); // unique per segment: not worth the IRI cache
  const totals: Totals = { count: 0, sums: new Map() };
  const raw = instancesJson(index, e, start, end, totals);
  const aggs = aggregatesJson(index, e, start, SEGMENT_MS, totals);
  if (totals.count === 0) return null;
  return (
    header(s, e, start, end, totals) +
    (raw ? ntLine(s, P_INSTANCES, ntLiteral(raw, RDF_JSON)) : "") +
    (aggs ? ntLine(s, P_AGGREGATES, ntLiteral(aggs, RDF_JSON)) : "")
  );
}

/**
 * The N-Triples of the daily aggregates of `e` for the day from `day` ({@link dayGraphIri}), or null when
 * it has none: `cgh:entity`, `cgh:start`, `cgh:end`, `cgh:count`, the daily `<attribute> avg` and
 * `cgh:aggregates`.
 */
export function dayTriples(index: TemporalIndex, e: TemporalEntity, day: number): string | null {
  const s = ntIriOnce(dayGraphIri(e.id, day));
  const totals: Totals = { count: 0, sums: new Map() };
  const aggs = aggregatesJson(index, e, day, DAY_MS, totals);
  if (!aggs) return null;
  return header(s, e, day, day + DAY_MS, totals) + ntLine(s, P_AGGREGATES, ntLiteral(aggs, RDF_JSON));
}

function header(s: string, e: TemporalEntity, start: number, end: number, totals: Totals): string {
  let avgs = "";
  for (const [attr, a] of totals.sums) avgs += ntLine(s, attr, ntLiteral(String(a.sum / a.n), XSD_DOUBLE));
  return (
    ntLine(s, P_ENTITY, ntIri(e.id)) +
    ntLine(s, P_START, ntLiteral(iso(start), XSD_DATETIME)) +
    ntLine(s, P_END, ntLiteral(iso(end), XSD_DATETIME)) +
    ntLine(s, P_COUNT, ntLiteral(String(totals.count), XSD_INTEGER)) +
    avgs
  );
}

/** The `cgh:instances` JSON of the raw instances of `e` in [start, end), or null without any. */
function instancesJson(
  index: TemporalIndex,
  e: TemporalEntity,
  start: number,
  end: number,
  totals: Totals,
): string | null {
  /** Each template's JSON (`Interner.stringified`): the literal is spliced, not stringified again. */
  const templates: string[] = [];
  const tplAt = new Map<number, number>();
  const attrs: string[] = [];
  for (const [attr, ser] of e.attrs) {
    const from = ser.lowerBound(start);
    const to = ser.lowerBound(end);
    if (from >= to) continue;
    const cols = new AttributeColumns(attr);
    let sum = 0;
    let nums = 0;
    for (let i = from; i < to; i++) {
      let k = tplAt.get(ser.rest(i));
      if (k === undefined) {
        tplAt.set(ser.rest(i), (k = templates.length));
        templates.push(index.interner.stringified(ser.rest(i)));
      }
      const num = ser.num(i);
      cols.add(
        ser.iid(i),
        ser.obs(i) - start,
        ser.created(i) - start,
        ser.modified(i) - ser.created(i),
        num,
        k,
      );
      if (!Number.isNaN(num) && index.datasetId(ser.rest(i)) === undefined) {
        sum += num;
        nums++;
      }
    }
    totals.count += to - from;
    attrs.push(cols.json());
    addSum(totals, attr, sum, nums);
  }
  return attrs.length ? `{"templates":[${templates.join(",")}],"attrs":[${attrs.join(",")}]}` : null;
}

/**
 * The `cgh:aggregates` JSON of the aggregates of `e` that start in [start, start + len) and are `len`
 * long, or null without any: `{"templates": [shape...], "attrs": [{"attr", "t", "count", "numbers",
 * "sum", "sumsq", "min", "max", "distinct"}]}`, `t` indexing the instances' shape (`type`, `datasetId`,
 * `unitCode`); min and max are left out without numbers.
 */
function aggregatesJson(
  index: TemporalIndex,
  e: TemporalEntity,
  start: number,
  len: number,
  totals: Totals,
): string | null {
  const templates: string[] = [];
  const tplAt = new Map<number, number>();
  const rows: string[] = [];
  for (const [attr, roll] of e.rollups ?? []) {
    for (let i = roll.lowerBound(start); i < roll.length && roll.start(i) < start + len; i++) {
      if (roll.len(i) !== len) continue;
      const b = roll.bucket(i);
      let k = tplAt.get(b.tpl);
      if (k === undefined) {
        tplAt.set(b.tpl, (k = templates.length));
        templates.push(index.interner.stringified(b.tpl));
      }
      const row: Record<string, unknown> = { attr, t: k, count: b.count, numbers: b.numbers };
      if (b.numbers > 0) Object.assign(row, { sum: b.sum, sumsq: b.sumsq, min: b.min, max: b.max });
      row.distinct = b.distinct;
      rows.push(JSON.stringify(row));
      totals.count += b.count;
      if (index.interner.object(b.tpl).datasetId === undefined) addSum(totals, attr, b.sum, b.numbers);
    }
  }
  return rows.length ? `{"templates":[${templates.join(",")}],"attrs":[${rows.join(",")}]}` : null;
}
