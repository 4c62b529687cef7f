import { entityToNQuadsFast } from "./codec-nquads";
import { makeEntity } from "./entities";
import { entityToNQuads } from "./jsonld-nquads";
import { measureRawIngest, type RawIngestResult } from "../store-ingest";

export type { RawIngestResult };

/**
 * The raw-ingest ceiling: the same entities as N-Quads, loaded straight into the Oxigraph store by
 * `measureRawIngest` of bench/store-ingest.ts (a fresh worker thread, one `load` call per entity,
 * no journal, no HTTP).
 */

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

/** Measures the raw store ingest of `nquads`, `batchSize` entities per message to the worker. */
export async function rawIngest(nquads: string[], batchSize: number): Promise<RawIngestResult> {
  return measureRawIngest(nquads, { batchSize });
}
