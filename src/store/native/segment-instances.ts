import { ntIri, ntIriOnce, ntLiteral } from "../../rdf/ntriples/write";
import { NGSI_LD, RDF_JSON, XSD_DATETIME, XSD_DOUBLE, XSD_INTEGER, XSD_STRING } from "../../rdf/vocab";

/** Namespace of the history terms (`cgh:`, docs/architecture.md "Temporal history in the graph"). */
export const CGH = "https://w3id.org/citygraph/history#";

/** The `cgh:instances` JSON of a history segment (columns per attribute, delta-encoded). */
interface SegmentJson {
  templates: Record<string, unknown>[];
  attrs: {
    attr: string;
    n: number[];
    o: (number | null)[];
    c: number[];
    m?: number[];
    v: (number | null)[];
    t: number | number[];
  }[];
}

const iso = (t: number): string => new Date(t).toISOString();
const at = (t: number): string => ntLiteral(iso(t), XSD_DATETIME);
const P = (local: string): string => ntIri(`${NGSI_LD}${local}`);

/** A JSON value as an RDF term: numbers typed, strings plain, the rest rdf:JSON. */
function valueTerm(v: unknown): string {
  if (typeof v === "number") return ntLiteral(String(v), Number.isInteger(v) ? XSD_INTEGER : XSD_DOUBLE);
  if (typeof v === "string") return ntLiteral(v, XSD_STRING);
  return ntLiteral(JSON.stringify(v), RDF_JSON);
}

/**
 * The instances of one history segment (its `cgh:instances` literal, starting at `start` ms) as rows of
 * N-Triples: per instance, subject its instanceId, `cgh:attribute`, `ngsi-ld:observedAt` (else
 * `ngsi-ld:modifiedAt`, an xsd:dateTime), its value (`ngsi-ld:hasValue` typed by the JSON value,
 * `ngsi-ld:hasObject` for a relationship), `unitCode`, `datasetId` and `deletedAt` for a deletion: three
 * to five triples, as each costs RocksDB keys and disk (docs/decisions/0013-instance-graphs.md). createdAt,
 * modifiedAt and sub-attributes stay in the segment's JSON. Returns the text and the number of triples.
 */
export function segmentInstanceTriples(json: string, start: number): { text: string; triples: number } {
  const seg = JSON.parse(json) as SegmentJson;
  let text = "";
  let triples = 0;
  const add = (s: string, p: string, o: string) => {
    text += `${s} ${p} ${o} .\n`;
    triples++;
  };
  for (const a of seg.attrs) {
    const attr = ntIri(a.attr);
    let n = 0;
    let o = start;
    let c = start;
    for (let i = 0; i < a.n.length; i++) {
      n += a.n[i];
      c += a.c[i];
      const tpl = seg.templates[typeof a.t === "number" ? a.t : a.t[i]] ?? {};
      const s = ntIriOnce(`urn:ngsi-ld:attribute:instance:${n}`);
      add(s, ntIri(`${CGH}attribute`), attr);
      const obs = a.o[i];
      if (obs !== null) {
        o += obs;
        add(s, P("observedAt"), at(o));
      }
      const modified = c + (a.m?.[i] ?? 0);
      if (obs === null) add(s, P("modifiedAt"), at(modified));
      if (tpl.deletedAt === true) add(s, P("deletedAt"), at(modified));
      else if (a.v[i] !== null) add(s, P("hasValue"), valueTerm(a.v[i]));
      else if (tpl.type === "Relationship" && typeof tpl.object === "string")
        add(s, P("hasObject"), ntIriOnce(tpl.object));
      else if (tpl.value !== undefined) add(s, P("hasValue"), valueTerm(tpl.value));
      if (typeof tpl.unitCode === "string") add(s, P("unitCode"), ntLiteral(tpl.unitCode, XSD_STRING));
      if (typeof tpl.datasetId === "string") add(s, P("datasetId"), ntIriOnce(tpl.datasetId));
    }
  }
  return { text, triples };
}
