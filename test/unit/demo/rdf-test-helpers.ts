/**
 * Test-only: the RDF the store keeps for a traffic entity, built with jsonld.js.
 * - normative NGSI-LD RDF of the expanded entity, with every GeoProperty value as one rdf:JSON
 *   literal (as the store writes it);
 * - the shortcut triples of docs/design.md: <entity> <expanded attribute IRI> <plain value> per value
 *   (DateTime -> xsd:dateTime, numbers xsd:integer / xsd:double, booleans, Relationship and
 *   ListRelationship objects as IRIs), geo:lat / geo:long for a Point `location`, geosparql:asWKT
 *   for every GeoProperty, and ngsi-ld:status written as traffic:status.
 * The integrator produces the same triples in the real write path.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import jsonld from "jsonld";
import { DataFactory, Store, Parser, type Quad, type Term } from "n3";
import { projectRoot } from "../../../src/demo/seed/project-root";
import { TRAFFIC_CONTEXT_URL, TRAFFIC_SHORTCUT_ALIASES } from "../../../src/domain/vocabulary";
import { CORE_CONTEXT_URL as NGSI_LD_CORE_CONTEXT_URL } from "../../../src/rdf/contexts/core";

const { namedNode, literal, quad, blankNode, defaultGraph } = DataFactory;
const NGSI = "https://uri.etsi.org/ngsi-ld/";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const GEO = "http://www.w3.org/2003/01/geo/wgs84_pos#";
const GEOSPARQL = "http://www.opengis.net/ont/geosparql#";

const LOCAL_CONTEXTS: Record<string, string> = {
  [TRAFFIC_CONTEXT_URL]: "contexts/traffic.jsonld",
  [NGSI_LD_CORE_CONTEXT_URL]: "contexts/ngsi-ld-core-context-v1.8.jsonld",
};
const contextCache = new Map<string, unknown>();

/** A jsonld.js document loader serving the two contexts from contexts/ (no network). */
export async function documentLoader(url: string) {
  const file = LOCAL_CONTEXTS[url];
  if (!file) throw new Error(`test document loader: no local copy of ${url}`);
  let document = contextCache.get(url);
  if (!document) {
    document = JSON.parse(fs.readFileSync(path.join(projectRoot(), file), "utf8"));
    contextCache.set(url, document);
  }
  return { contextUrl: undefined, documentUrl: url, document };
}

type Json = Record<string, unknown>;

/** Canonical xsd:double lexical form (JSON-LD 1.1 API §8.6): 1.5 -> "1.5E0". */
function canonicalDouble(n: number): string {
  const [mantissa, exp] = n.toExponential().split("e");
  return `${mantissa.includes(".") ? mantissa : `${mantissa}.0`}E${Number(exp)}`;
}

/** A copy of the entity with every GeoProperty value as an @json literal, as the store keeps it. */
function withJsonGeoValues(doc: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(doc)) {
    const a = v as Json;
    out[k] =
      a && typeof a === "object" && a.type === "GeoProperty"
        ? { ...a, value: { "@type": "@json", "@value": a.value } }
        : v;
  }
  return out;
}

function ring(r: number[][]): string {
  return `(${r.map(([x, y]) => `${x} ${y}`).join(", ")})`;
}

/** WKT (CRS84, lon lat) of a GeoJSON geometry. */
export function toWkt(g: { type: string; coordinates: unknown }): string {
  const c = g.coordinates as never;
  switch (g.type) {
    case "Point":
      return `POINT(${(c as number[])[0]} ${(c as number[])[1]})`;
    case "LineString":
      return `LINESTRING${ring(c)}`;
    case "Polygon":
      return `POLYGON(${(c as number[][][]).map(ring).join(", ")})`;
    case "MultiPolygon":
      return `MULTIPOLYGON(${(c as number[][][][]).map((p) => `(${p.map(ring).join(", ")})`).join(", ")})`;
    default:
      throw new Error(`toWkt: ${g.type} not supported in this helper`);
  }
}

function plainLiteral(v: Json): Term | undefined {
  const value = v["@value"];
  const type = v["@type"] as string | undefined;
  if (type === `${NGSI}DateTime`) return literal(String(value), namedNode(`${XSD}dateTime`));
  if (type === `${NGSI}Date`) return literal(String(value), namedNode(`${XSD}date`));
  if (type === `${NGSI}Time`) return literal(String(value), namedNode(`${XSD}time`));
  if (type === "@json") return undefined;
  if (typeof value === "boolean") return literal(String(value), namedNode(`${XSD}boolean`));
  if (typeof value === "number") {
    // Lexical forms as jsonld.js (and the store's codec) write them: 12 -> "12", 1.5 -> "1.5E0".
    if (Number.isInteger(value)) return literal(value.toFixed(0), namedNode(`${XSD}integer`));
    return literal(canonicalDouble(value), namedNode(`${XSD}double`));
  }
  if (typeof value === "string") return type ? literal(value, namedNode(type)) : literal(value);
  return undefined;
}

/** The shortcut quads of one expanded entity. */
export function shortcutQuads(expanded: Json): Quad[] {
  const s = namedNode(expanded["@id"] as string);
  const out: Quad[] = [];
  for (const [attr, instances] of Object.entries(expanded)) {
    if (attr.startsWith("@")) continue;
    const p = namedNode(TRAFFIC_SHORTCUT_ALIASES[attr] ?? attr);
    for (const inst of instances as Json[]) {
      const kind = ((inst["@type"] as string[] | undefined) ?? [])[0];
      if (kind === `${NGSI}Property` || kind === `${NGSI}ListProperty`) {
        for (const v of (inst[`${NGSI}hasValue`] as Json[] | undefined) ?? []) {
          const o = plainLiteral(v);
          if (o) out.push(quad(s, p, o as never));
        }
      } else if (kind === `${NGSI}Relationship`) {
        for (const o of (inst[`${NGSI}hasObject`] as Json[] | undefined) ?? [])
          out.push(quad(s, p, namedNode(o["@id"] as string)));
      } else if (kind === `${NGSI}ListRelationship`) {
        for (const l of (inst[`${NGSI}hasObjectList`] as Json[] | undefined) ?? [])
          for (const item of (l["@list"] as Json[]) ?? [])
            for (const o of (item[`${NGSI}hasObject`] as Json[] | undefined) ?? [])
              out.push(quad(s, p, namedNode(o["@id"] as string)));
      } else if (kind === `${NGSI}GeoProperty`) {
        const g = ((inst[`${NGSI}hasValue`] as Json[])[0]["@value"] ?? {}) as {
          type: string;
          coordinates: number[];
        };
        out.push(
          quad(s, namedNode(`${GEOSPARQL}asWKT`), literal(toWkt(g), namedNode(`${GEOSPARQL}wktLiteral`))),
        );
        if (attr === `${NGSI}location` && g.type === "Point") {
          out.push(
            quad(s, namedNode(`${GEO}long`), literal(String(g.coordinates[0]), namedNode(`${XSD}double`))),
          );
          out.push(
            quad(s, namedNode(`${GEO}lat`), literal(String(g.coordinates[1]), namedNode(`${XSD}double`))),
          );
        }
      }
    }
  }
  return out;
}

type RdfTerm = { termType: string; value: string; datatype?: { value: string }; language?: string };

/** An n3 term; blank node labels get the document's prefix (jsonld.js restarts at _:b0 per call). */
function toN3Term(t: RdfTerm, bnodePrefix: string): Term {
  if (t.termType === "NamedNode") return namedNode(t.value);
  if (t.termType === "BlankNode") return blankNode(`${bnodePrefix}${t.value.replace(/^_:/, "")}`);
  if (t.termType === "DefaultGraph") return defaultGraph();
  if (t.language) return literal(t.value, t.language);
  return literal(t.value, t.datatype ? namedNode(t.datatype.value) : undefined);
}

/** Normative NGSI-LD RDF + shortcut triples of the given entity documents, in one n3 Store. */
export async function entitiesToStore(docs: readonly object[]): Promise<Store> {
  const store = new Store();
  let n = 0;
  for (const doc of docs) {
    const prefix = `d${n++}_`;
    const stored = withJsonGeoValues(doc as Json);
    const rdf = (await jsonld.toRDF(stored as never, { documentLoader } as never)) as unknown as {
      subject: RdfTerm;
      predicate: RdfTerm;
      object: RdfTerm;
    }[];
    for (const q of rdf) {
      const [s, p, o] = [q.subject, q.predicate, q.object].map((t) => toN3Term(t, prefix));
      store.addQuad(quad(s as never, p as never, o as never));
    }
    const expanded = (await jsonld.expand(stored as never, { documentLoader } as never)) as unknown as Json[];
    for (const e of expanded) store.addQuads(shortcutQuads(e));
  }
  return store;
}

/** All SHACL shapes of shapes/*.ttl in one n3 Store. */
export function loadShapes(): Store {
  const dir = path.join(projectRoot(), "shapes");
  const store = new Store();
  for (const f of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(".ttl"))
    .sort()) {
    store.addQuads(
      new Parser({ baseIRI: `file:///shapes/${f}` }).parse(fs.readFileSync(path.join(dir, f), "utf8")),
    );
  }
  return store;
}
