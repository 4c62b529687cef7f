import * as fs from "fs";
import * as path from "path";
import jsonld from "jsonld";
import { entityToTriples, triplesToEntity, type NgsiEntity } from "../src/ngsi-ld/codec";
import { compileContext } from "../src/rdf/contexts/compile-context";

/**
 * Codec benchmark: µs per entity to expand (entity -> N-Triples) and compact
 * (N-Triples -> entity) a 10-attribute entity, fast path vs jsonld.js (expand / toRDF / compact).
 * Run: `node dist/bench/codec.js`. `benchCodec()` returns the figures for the main bench.
 */
const CORE_URL = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
const CORE = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../../contexts/ngsi-ld-core-context-v1.8.jsonld"), "utf8"),
) as object;

/** A typical 10-attribute traffic entity. */
export const SAMPLE: NgsiEntity = {
  id: "urn:ngsi-ld:TrafficCamera:cam-001",
  type: "TrafficCamera",
  createdAt: "2024-03-01T10:00:00Z",
  modifiedAt: "2024-03-01T10:05:00Z",
  status: { type: "Property", value: "active", observedAt: "2024-03-01T10:05:00Z" },
  name: { type: "LanguageProperty", languageMap: { en: "Camera 1", vi: "Camera số 1" } },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.69, 10.79] } },
  vehicleCount: { type: "Property", value: 42, unitCode: "E50", observedAt: "2024-03-01T10:05:00Z" },
  averageSpeed: {
    type: "Property",
    value: 37.5,
    unitCode: "KMH",
    provider: { type: "Property", value: "radar" },
  },
  road: { type: "Relationship", object: "urn:ngsi-ld:Road:NguyenHue" },
  category: { type: "VocabProperty", vocab: "surveillance" },
  config: { type: "JsonProperty", json: { fps: 25, resolution: [1920, 1080] } },
  lastIncident: { type: "Property", value: { "@type": "DateTime", "@value": "2024-02-28T08:00:00Z" } },
  address: { type: "Property", value: { streetAddress: "1 Nguyen Hue", addressLocality: "District 1" } },
};

/** Figures in µs per entity. */
export interface CodecBench {
  fastExpand: number;
  fastCompact: number;
  jsonldExpand: number;
  jsonldToRdf: number;
  jsonldCompact: number;
}

async function time(n: number, f: () => unknown | Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(n, 500); i++) await f();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await f();
  return Number(process.hrtime.bigint() - t0) / 1000 / n;
}

/** Runs the benchmark and returns µs per entity for each path. */
export async function benchCodec(iterations = 20_000): Promise<CodecBench> {
  const ctx = compileContext([CORE]);
  const documentLoader = async (url: string) => ({ contextUrl: null, document: CORE, documentUrl: url });
  const opts = { documentLoader } as object;
  const doc = { ...SAMPLE, "@context": CORE_URL } as object;
  const nt = entityToTriples(SAMPLE, ctx);
  const expanded = await jsonld.expand(doc, opts);
  const compact = jsonld.compact as unknown as (d: unknown, c: unknown, o: unknown) => Promise<unknown>;
  const slow = Math.max(200, Math.floor(iterations / 20));
  return {
    fastExpand: await time(iterations, () => entityToTriples(SAMPLE, ctx)),
    fastCompact: await time(iterations, () => triplesToEntity(nt, SAMPLE.id, ctx)),
    jsonldExpand: await time(slow, () => jsonld.expand(doc, opts)),
    jsonldToRdf: await time(slow, () =>
      jsonld.toRDF(doc, { ...opts, format: "application/n-quads" } as object),
    ),
    jsonldCompact: await time(slow, () => compact(expanded, CORE_URL, opts)),
  };
}

if (require.main === module) {
  void benchCodec().then((r) => {
    const row = (k: string, fast: number | string, ref: number) =>
      `${k.padEnd(10)} ${String(fast).padStart(12)} ${ref.toFixed(1).padStart(14)}`;
    console.log(`${"µs/entity".padEnd(10)} ${"fast path".padStart(12)} ${"jsonld.js".padStart(14)}`);
    console.log(row("expand", r.fastExpand.toFixed(1), r.jsonldExpand));
    console.log(row("toRDF", "(incl.)", r.jsonldToRdf));
    console.log(row("compact", r.fastCompact.toFixed(1), r.jsonldCompact));
    console.log(JSON.stringify(r));
  });
}
