import path from "node:path";
import { entityToNQuadsFast } from "./codec-nquads";
import { makeEntity } from "./entities";
import { entityToNQuads } from "./jsonld-nquads";

/**
 * The raw-ingest ceiling: the same entities as N-Quads, loaded straight into the Oxigraph store by
 * `measureRawIngest` of bench/store-ingest.ts (written by the store engineer; loaded at run time so
 * that the harness compiles before that file lands).
 */

/** What the store's raw ingest measured. */
export interface RawIngestResult {
  entitiesPerSec: number;
  quadsPerSec: number;
  [extra: string]: unknown;
}

type MeasureRawIngest = (
  nquadsPerEntity: string[],
  opts: Record<string, unknown>,
) => Promise<RawIngestResult>;

function loadMeasure(): MeasureRawIngest {
  const file = path.resolve(__dirname, "..", "store-ingest.js");
  let mod: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- until bench/store-ingest.ts lands
    mod = require(file) as unknown;
  } catch (e) {
    throw new Error(`raw ingest: ${file} is not there yet (${(e as Error).message.split("\n")[0]})`);
  }
  const fn = (mod as { measureRawIngest?: unknown }).measureRawIngest;
  if (typeof fn !== "function") throw new Error(`raw ingest: ${file} has no measureRawIngest`);
  return fn as MeasureRawIngest;
}

/** Which converter made the N-Quads: the service's codec (default) or jsonld.js (`BENCH_NQUADS=jsonld`). */
export type NQuadsSource = "codec" | "jsonld.js";

/** The converter chosen by `BENCH_NQUADS`. */
export function nquadsSource(): NQuadsSource {
  return process.env.BENCH_NQUADS === "jsonld" ? "jsonld.js" : "codec";
}

/**
 * N-Quads of entity numbers [0, count), one string per entity; progress printed. The codec gives
 * what the store holds (normative RDF + shortcut triples + createdAt/modifiedAt); jsonld.js gives
 * the normative RDF only, with the GeoJSON Point as an RDF list, at about 1 ms per entity.
 */
export async function nquadsOf(count: number, source: NQuadsSource): Promise<string[]> {
  const out: string[] = [];
  const now = new Date().toISOString();
  for (let n = 0; n < count; n++) {
    const e = makeEntity(n, true);
    out.push(source === "codec" ? entityToNQuadsFast(e, now) : await entityToNQuads(e));
    if ((n + 1) % 10000 === 0) process.stdout.write(`  N-Quads: ${n + 1}/${count}\n`);
  }
  return out;
}

/** Measures the raw store ingest of `nquads`. */
export async function rawIngest(
  nquads: string[],
  opts: Record<string, unknown> = {},
): Promise<RawIngestResult> {
  return loadMeasure()(nquads, opts);
}
