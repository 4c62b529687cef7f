import { parentPort, workerData } from "node:worker_threads";
import oxigraph from "oxigraph";
import { lineCount } from "./ntriples-text";
import { preGrowWasmMemory } from "./recovery";

/*
 * Raw-ingest worker for bench/store-ingest.ts (docs/design.md "The store lives in a worker thread"): loads
 * entity N-Quads into one Oxigraph store the way the store worker loads a graph write (one `load` call
 * per entity, from UTF-8 bytes, no_transaction, after the same WASM pre-growth) but with no journal, no
 * counts, no undo. Message in: string[] (one entity's N-Quads each), or { bytes, ends } (the entities'
 * N-Quads as UTF-8 in one buffer, and where each ends); message out: { quads, ms } of that batch.
 */
const port = parentPort;
if (!port) throw new Error("raw-ingest-worker must run in a worker thread");
preGrowWasmMemory((workerData as { wasmPreGrowBytes: number }).wasmPreGrowBytes);
const store = new oxigraph.Store();
const load = (nq: string | Uint8Array): number => {
  store.load(nq, { format: "application/n-quads", no_transaction: true });
  return lineCount(nq);
};
port.on("message", (m: string[] | { bytes: Uint8Array; ends: number[] }) => {
  const t0 = performance.now();
  let quads = 0;
  if (Array.isArray(m)) for (const nq of m) quads += load(nq);
  else {
    let at = 0;
    for (const end of m.ends) quads += load(m.bytes.subarray(at, (at = end)));
  }
  port.postMessage({ quads, ms: performance.now() - t0 });
});
port.postMessage({ ready: true });
