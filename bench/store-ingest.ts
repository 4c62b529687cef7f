import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { GraphStore } from "../src/store/graph-store";
import { openGraphStore } from "../src/store/open-store";

/** Options of {@link measureRawIngest}. */
export interface RawIngestOptions {
  /** Entities per message to the worker (default 1000, like a 1,000-entity batch upsert). */
  batchSize?: number;
  /**
   * Hand Oxigraph UTF-8 bytes (default, `BENCH_RAW_TEXT=1` turns it off): each batch goes to the worker as
   * one transferred buffer, encoded before the clock starts, as the store worker now gets a commit's
   * N-Triples (docs/decisions/0001-write-path.md); false posts strings.
   */
  bytes?: boolean;
}

/**
 * One batch for the raw-ingest worker: the entities' N-Quads as UTF-8 in one buffer that owns its
 * ArrayBuffer (transferred), and where each entity ends in it.
 */
function byteBatch(entities: string[]): { bytes: Uint8Array; ends: number[] } {
  const size = entities.reduce((n, e) => n + Buffer.byteLength(e, "utf8"), 0);
  const bytes = Buffer.allocUnsafeSlow(size);
  const ends: number[] = [];
  let at = 0;
  for (const e of entities) ends.push((at += bytes.write(e, at, "utf8")));
  return { bytes, ends };
}

/** Result of {@link measureRawIngest}; the rates are over the wall time seen from this thread. */
export interface RawIngestResult {
  entitiesPerSec: number;
  quadsPerSec: number;
  entities: number;
  quads: number;
  wallMs: number;
  /** Time spent inside Oxigraph `load` calls only. */
  loadMs: number;
}

/**
 * The raw ingest ceiling of the native store for `nquadsPerEntity` (docs/decisions/0019-native-store.md): a
 * fresh worker thread loads each batch of entities' N-Quads in one transaction of a RocksDB store of its own,
 * as the store worker applies a commit, without the journal. The HTTP write path is compared against this figure.
 */
export async function measureRawIngest(
  nquadsPerEntity: string[],
  opts: RawIngestOptions = {},
): Promise<RawIngestResult> {
  const batch = opts.batchSize ?? 1000;
  const worker = new Worker(path.join(__dirname, "..", "src", "store", "worker", "raw-ingest-worker.js"), {
    workerData: { dir: fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-raw-ingest-")) },
  });
  try {
    const replies: { quads: number; ms: number }[] = [];
    const bytes = opts.bytes ?? process.env.BENCH_RAW_TEXT !== "1";
    const batches: (string[] | { bytes: Uint8Array; ends: number[] })[] = [];
    for (let i = 0; i < nquadsPerEntity.length; i += batch) {
      const slice = nquadsPerEntity.slice(i, i + batch);
      batches.push(bytes ? byteBatch(slice) : slice);
    }
    let t0 = 0;
    await new Promise<void>((resolve, reject) => {
      worker.on("error", reject);
      worker.on("message", (m: { ready?: boolean; quads: number; ms: number }) => {
        if (m.ready) {
          t0 = performance.now();
          for (const b of batches) {
            if (typeof b === "string" || Array.isArray(b)) worker.postMessage(b);
            else worker.postMessage(b, [b.bytes.buffer as ArrayBuffer]);
          }
          if (batches.length === 0) resolve();
          return;
        }
        replies.push(m);
        if (replies.length === batches.length) resolve();
      });
    });
    const wallMs = performance.now() - t0;
    const quads = replies.reduce((n, r) => n + r.quads, 0);
    const loadMs = replies.reduce((n, r) => n + r.ms, 0);
    const entities = nquadsPerEntity.length;
    return {
      entitiesPerSec: Math.round((entities / wallMs) * 1000),
      quadsPerSec: Math.round((quads / wallMs) * 1000),
      entities,
      quads,
      wallMs: Math.round(wallMs),
      loadMs: Math.round(loadMs),
    };
  } finally {
    await worker.terminate();
  }
}

/** N-Triples of a sample camera entity with 10 attributes (~51 triples, blank-node attribute nodes). */
export function sampleEntityTriples(i: number, version = 0): string {
  const e = `<urn:ngsi-ld:TrafficCamera:bench${i}>`;
  const xsd = "http://www.w3.org/2001/XMLSchema#";
  const lines = [
    `${e} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://citygraph.example/ontology#TrafficCamera> .`,
  ];
  for (let k = 0; k < 10; k++) {
    lines.push(`${e} <https://citygraph.example/ontology#attr${k}> _:b${k} .`);
    lines.push(
      `_:b${k} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://uri.etsi.org/ngsi-ld/Property> .`,
    );
    lines.push(`_:b${k} <https://uri.etsi.org/ngsi-ld/hasValue> "value ${k} of ${i} v${version}" .`);
    lines.push(
      `_:b${k} <https://uri.etsi.org/ngsi-ld/observedAt> "2024-05-01T10:00:0${k}Z"^^<${xsd}dateTime> .`,
    );
    lines.push(`${e} <https://citygraph.example/ontology#attr${k}Value> "${i * 10 + k}"^^<${xsd}integer> .`);
  }
  return lines.join("\n") + "\n";
}

const graphOf = (i: number): string => `urn:ngsi-ld:TrafficCamera:bench${i}`;
const seconds = (t0: number): number => (performance.now() - t0) / 1000;

/** Store figures: round trip, concurrent small commits, 1,000-entity commits, snapshot, replay. */
async function measureStore(entities: number): Promise<Record<string, number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-bench-store-"));
  const out: Record<string, number> = {};
  let store: GraphStore | undefined;
  try {
    store = await openGraphStore({ dataDir: dir });
    let t0 = performance.now();
    for (let i = 0; i < 5000; i++) await store.readGraphs("", []);
    out.roundTripUs = Math.round((seconds(t0) * 1e6) / 5000);

    const small = Math.min(entities, 10_000);
    let next = 0;
    t0 = performance.now();
    const client = async (s: GraphStore): Promise<void> => {
      for (let i = next++; i < small; i = next++)
        await s.commit("", [{ graph: graphOf(i), triples: sampleEntityTriples(i) }]);
    };
    await Promise.all(Array.from({ length: 64 }, () => client(store as GraphStore)));
    out.smallCommitsPerSec = Math.round(small / seconds(t0));

    t0 = performance.now();
    for (let b = small; b < entities; b += 1000) {
      const writes = [];
      for (let i = b; i < Math.min(entities, b + 1000); i++)
        writes.push({ graph: graphOf(i), triples: sampleEntityTriples(i) });
      await store.commit("", writes);
    }
    out.batchedEntitiesPerSec = Math.round((entities - small) / seconds(t0));

    t0 = performance.now();
    for (let b = 0; b < 5000; b += 1000) {
      const writes = [];
      for (let i = b; i < b + 1000; i++)
        writes.push({ graph: graphOf(i), triples: sampleEntityTriples(i, 1) });
      await store.commit("", writes);
    }
    out.batchedReplacePerSec = Math.round(5000 / seconds(t0));
    out.quads = (await store.stats()).quads;
    out.journalMB = Math.round((await store.stats()).journalBytes / 1e5) / 10;
    await store.close();

    t0 = performance.now();
    store = await openGraphStore({ dataDir: dir });
    out.replayMs = Math.round(seconds(t0) * 1000);
    out.replayQuadsPerSec = Math.round(out.quads / seconds(t0));
    t0 = performance.now();
    await store.compact();
    out.snapshotMs = Math.round(seconds(t0) * 1000);
    await store.close();
    t0 = performance.now();
    store = await openGraphStore({ dataDir: dir });
    out.snapshotLoadMs = Math.round(seconds(t0) * 1000);
    await store.close();
    store = undefined;
  } finally {
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

async function main(): Promise<void> {
  const n = Number(process.env.ENTITIES ?? 20_000);
  const nquads = Array.from({ length: n }, (_, i) =>
    sampleEntityTriples(i).replaceAll(" .\n", ` <${graphOf(i)}> .\n`),
  );
  const raw = await measureRawIngest(nquads);
  process.stdout.write(`raw ingest (${n} entities of 51 quads): ${JSON.stringify(raw)}\n`);
  if (process.env.STORE !== "off") process.stdout.write(`store: ${JSON.stringify(await measureStore(n))}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
