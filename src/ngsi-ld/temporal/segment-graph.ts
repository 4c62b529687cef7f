import { ntIri, ntIriOnce, ntLine, ntLiteral } from "../../rdf/ntriples/write";
import { RDF_JSON, XSD_DATETIME, XSD_DOUBLE, XSD_INTEGER } from "../../rdf/vocab";
import { HISTORY_GRAPH_PREFIX } from "../../store/graph-store";
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
 * `JSON.stringify({ templates, attrs })` for templates and attributes given as their JSON texts: the same
 * characters, with each template's text reused instead of its object serialized again per segment.
 */
function instancesJson(templates: string[], attrs: string[]): string {
  return `{"templates":[${templates.join(",")}],"attrs":[${attrs.join(",")}]}`;
}

/**
 * The N-Triples of the history segment of `e` for the hour from `start` (docs/architecture.md "Temporal history in the graph"), or null when the hour holds no instance (the
 * graph is then dropped). Subject = graph = {@link segmentGraphIri}; triples: `cgh:entity`, `cgh:start`,
 * `cgh:end`, `cgh:count` (instances of every attribute), one `<attribute> avg` per attribute with numeric
 * default-dataset instances (the hourly mean, like the entity's plain value triples), and `cgh:instances`:
 * every instance of the hour, lossless, as one rdf:JSON literal (ETSI GS CIM 009 v1.8 §4.5.9 members:
 * value, observedAt, createdAt, modifiedAt, instanceId, datasetId and sub-attributes in the template).
 */
export function segmentTriples(index: TemporalIndex, e: TemporalEntity, start: number): string | null {
  const end = start + SEGMENT_MS;
  const s = ntIriOnce(segmentGraphIri(e.id, start)); // unique per segment: not worth the IRI cache
  /** Each template's JSON (`Interner.stringified`): the literal is spliced, not stringified again. */
  const templates: string[] = [];
  const tplAt = new Map<number, number>();
  const attrs: string[] = [];
  let avgs = "";
  let count = 0;
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
    count += to - from;
    attrs.push(cols.json());
    if (nums > 0) avgs += ntLine(s, attr, ntLiteral(String(sum / nums), XSD_DOUBLE));
  }
  if (count === 0) return null;
  return (
    ntLine(s, P_ENTITY, ntIri(e.id)) +
    ntLine(s, P_START, ntLiteral(iso(start), XSD_DATETIME)) +
    ntLine(s, P_END, ntLiteral(iso(end), XSD_DATETIME)) +
    ntLine(s, P_COUNT, ntLiteral(String(count), XSD_INTEGER)) +
    avgs +
    ntLine(s, P_INSTANCES, ntLiteral(instancesJson(templates, attrs), RDF_JSON))
  );
}
