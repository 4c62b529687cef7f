import * as fs from "fs";
import * as path from "path";
import { entityToTriples } from "../src/ngsi-ld/codec";
import { GeoIndex, type GeoQuery } from "../src/ngsi-ld/query/geo";
import { compileContext } from "../src/rdf/contexts/compile-context";

/**
 * Geo index benchmark (ETSI GS CIM 009 v1.8 §4.10): `n` entities with a Point
 * `location` spread over the HCMC box (10.35 to 11.16 N, 106.36 to 107.03 E), fed to the index through
 * the change-feed path (codec triples -> attributeFacts -> R-tree insert), then `near;maxDistance==500`
 * around random points: µs per query for `candidates` (bbox only) and `matches` (bbox + turf distance).
 * Run: `node dist/bench/geo-index.js [n]`. `benchGeoIndex()` returns the figures for the main bench.
 */
const CORE = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../../contexts/ngsi-ld-core-context-v1.8.jsonld"), "utf8"),
) as object;

/** Figures of one run. */
export interface GeoIndexBench {
  entities: number;
  /** µs per entity to derive and insert its geometry from the commit's triples. */
  applyUs: number;
  /** µs per near query, bbox candidates only / exact matches. */
  candidatesUs: number;
  matchesUs: number;
  /** Mean number of exact matches per query. */
  meanMatches: number;
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

/** Runs the benchmark over `n` entities. */
export function benchGeoIndex(n = 100_000, queries = 20_000): GeoIndexBench {
  const ctx = compileContext([CORE]);
  const rnd = lcg(1);
  const point = () => [106.36 + rnd() * 0.67, 10.35 + rnd() * 0.81];
  const index = new GeoIndex();
  const writes = Array.from({ length: n }, (_, i) => {
    const e = {
      id: `urn:ngsi-ld:TrafficCamera:${i}`,
      type: "TrafficCamera",
      speed: { type: "Property", value: i % 90 },
      location: { type: "GeoProperty", value: { type: "Point", coordinates: point() } },
    };
    return { graph: e.id, triples: entityToTriples(e as never, ctx) };
  });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1000) index.apply({ seq: i, tenant: "", writes: writes.slice(i, i + 1000) });
  const applyUs = Number(process.hrtime.bigint() - t0) / 1000 / n;
  const qs: GeoQuery[] = Array.from({ length: 1000 }, () => ({
    georel: { name: "near", maxDistance: 500 },
    geometry: { type: "Point", coordinates: point() },
    geoproperty: "location",
    geopropertyIri: "https://uri.etsi.org/ngsi-ld/location",
  }));
  const time = (f: (q: GeoQuery) => number): [number, number] => {
    let sum = 0;
    for (let i = 0; i < 1000; i++) f(qs[i % qs.length]);
    const t = process.hrtime.bigint();
    for (let i = 0; i < queries; i++) sum += f(qs[i % qs.length]);
    return [Number(process.hrtime.bigint() - t) / 1000 / queries, sum / queries];
  };
  const [candidatesUs] = time((q) => index.candidates("", q)?.length ?? 0);
  const [matchesUs, meanMatches] = time((q) => index.matches("", q).length);
  return { entities: n, applyUs, candidatesUs, matchesUs, meanMatches };
}

if (require.main === module) {
  const n = Number(process.argv[2] ?? 100_000);
  const r = benchGeoIndex(n);
  process.stdout.write(
    `geo index, ${r.entities} points: apply ${r.applyUs.toFixed(1)} µs/entity; near;maxDistance==500: ` +
      `candidates ${r.candidatesUs.toFixed(1)} µs, matches ${r.matchesUs.toFixed(1)} µs ` +
      `(${r.meanMatches.toFixed(1)} matches on average)\n`,
  );
}
