import { expect } from "chai";
import jsonld from "jsonld";
import {
  entityToTriples,
  triplesToEntity,
  type JsonValue,
  type NgsiEntity,
} from "../../../../src/ngsi-ld/codec";
import { canonicalJson } from "../../../../src/ngsi-ld/codec/literals";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import { nativeAddon } from "../../../../src/store/native/native-addon";
import { generateEntity, Rng } from "./entity-generator";
import { CORE_URL, ETSI_URL, documentLoader, loadContext } from "./local-contexts";

/**
 * Differential test of the fast JSON-LD path against jsonld.js, on generated entities.
 * (a) the normative triples of entityToTriples equal jsonld.js toRDF of the same document (with
 *     GeoProperty values wrapped as {"@type":"@json"}, the codec's one documented deviation), compared
 *     as URDNA2015-canonical N-Quads;
 * (b) triplesToEntity of those triples equals jsonld.js compact of the document with the same context;
 * (c) so does triplesToEntity of the graph as Oxigraph dumps it after loading the full triples as the
 *     store keeps them (shortcuts included, attribute timestamps in one literal: system-times.ts;
 *     Oxigraph relabels blank nodes, reorders and canonicalises literals).
 * Semantics-free normalisation in (b) only: arrays that are JSON-LD sets (not @list values, not JSON
 * literals, not GeoJSON) are compared as sorted sets, because RDF does not keep their order; and the
 * reference's wrapped GeoJSON value {"type":"@json","@value":g} is unwrapped to g.
 */
const PER_CONTEXT = 600;
const LIST_KEYS = new Set(["valueList", "objectList", "@list", "json"]);

type Obj = { [k: string]: JsonValue };

function mapGeo(v: JsonValue, f: (value: JsonValue) => JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map((x) => mapGeo(x, f));
  if (v === null || typeof v !== "object") return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v))
    out[k] = v.type === "GeoProperty" && k === "value" ? f(x) : k === "json" ? x : mapGeo(x, f);
  return out;
}

function normalise(v: JsonValue, key = ""): JsonValue {
  if (
    key === "json" ||
    (key === "value" && v !== null && typeof v === "object" && !Array.isArray(v) && "coordinates" in v)
  )
    return v;
  if (Array.isArray(v)) {
    const items = v.map((x) => normalise(x));
    return LIST_KEYS.has(key) ? items : items.sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
  }
  if (v === null || typeof v !== "object") return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) out[k] = normalise(x, k);
  return out;
}

async function canonical(input: object | string): Promise<string> {
  const opts =
    typeof input === "string"
      ? { inputFormat: "application/n-quads", algorithm: "URDNA2015", format: "application/n-quads" }
      : { algorithm: "URDNA2015", format: "application/n-quads", documentLoader };
  return await (jsonld.canonize as (i: unknown, o: unknown) => Promise<string>)(input, opts);
}

function firstDiff(a: JsonValue, b: JsonValue, path = "$"): string | undefined {
  if (canonicalJson(a) === canonicalJson(b)) return undefined;
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDiff((a as Obj)[k] ?? null, (b as Obj)[k] ?? null, `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path}: fast=${JSON.stringify(a)} jsonld.js=${JSON.stringify(b)}`;
}

async function compare(entity: NgsiEntity, urls: string[], contexts: object[]): Promise<void> {
  const ctx = compileContext(contexts);
  const ctxRef = urls.length === 1 ? urls[0] : urls;
  const doc = {
    ...(mapGeo(entity as unknown as JsonValue, (g) => ({ "@type": "@json", "@value": g })) as Obj),
    "@context": ctxRef,
  };
  const fast = entityToTriples(entity, ctx, { shortcuts: false });
  const [a, b] = await Promise.all([canonical(fast), canonical(doc)]);
  if (a !== b) {
    const fa = a.split("\n").filter((l) => !b.includes(l));
    const fb = b.split("\n").filter((l) => !a.includes(l));
    throw new Error(
      `RDF differs for ${JSON.stringify(entity)}\nonly fast:\n${fa.join("\n")}\nonly jsonld.js:\n${fb.join("\n")}`,
    );
  }
  const compact = jsonld.compact as unknown as (d: unknown, c: unknown, o: unknown) => Promise<Obj>;
  const compacted = await compact(doc, ctxRef, { documentLoader });
  delete compacted["@context"];
  const ref = normalise(
    mapGeo(compacted, (w) =>
      w !== null && typeof w === "object" && !Array.isArray(w) && "@value" in w ? w["@value"] : w,
    ),
  );
  const mine = normalise(triplesToEntity(fast, entity.id, ctx) as unknown as JsonValue);
  const d = firstDiff(mine, ref);
  if (d !== undefined) throw new Error(`compaction differs for ${JSON.stringify(entity)}\n${d}`);
  const store = nativeAddon().NativeStore.inMemory();
  store.apply([
    { op: "insert", graph: entity.id, triples: Buffer.from(entityToTriples(entity, ctx), "utf8") },
  ]);
  const dumped = store.readGraphs([entity.id])[0] ?? "";
  const d2 = firstDiff(normalise(triplesToEntity(dumped, entity.id, ctx) as unknown as JsonValue), ref);
  if (d2 !== undefined)
    throw new Error(`compaction after an Oxigraph round trip differs for ${JSON.stringify(entity)}\n${d2}`);
}

describe("fast JSON-LD path vs jsonld.js (differential)", function () {
  this.timeout(300_000);
  const setups: [string, string[], () => object[]][] = [
    ["core context alone", [CORE_URL], () => [loadContext(CORE_URL)]],
    [
      "ETSI test-suite context + core",
      [ETSI_URL, CORE_URL],
      () => [loadContext(ETSI_URL), loadContext(CORE_URL)],
    ],
  ];
  let total = 0;
  for (const [name, urls, contexts] of setups) {
    it(`${name}: ${PER_CONTEXT} generated entities give the same RDF and the same compaction`, async () => {
      const rng = new Rng(name.length * 7919);
      for (let i = 0; i < PER_CONTEXT; i++)
        await compare(generateEntity(rng, i, urls.length > 1), urls, contexts());
      total += PER_CONTEXT;
    });
  }
  after(() => {
    console.log(`      differential: ${total} entities compared with jsonld.js, no difference`);
    expect(total).to.be.at.least(1000);
  });
});
