import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { nativeAddon } from "../native/native-addon";

/*
 * Raw-ingest worker for bench/store-ingest.ts: loads entity N-Quads into a RocksDB store of its own
 * (`workerData.dir`, emptied first) the way the store worker applies a commit (one transaction per batch,
 * blank nodes renamed per entity) but with no journal, no plain view, no HTTP. Message in: string[] (one
 * entity's N-Quads each), or { bytes, ends } (the entities' N-Quads as UTF-8 in one buffer, and where each
 * ends); message out: { quads, ms } of that batch.
 */
const port = parentPort;
if (!port) throw new Error("raw-ingest-worker must run in a worker thread");
const dir = (workerData as { dir: string }).dir;
fs.rmSync(dir, { recursive: true, force: true });
const store = nativeAddon().NativeStore.open(dir);
port.on("message", (m: string[] | { bytes: Uint8Array; ends: number[] }) => {
  const t0 = performance.now();
  const ops = Array.isArray(m)
    ? m.map((nq) => ({ op: "insertQuads" as const, graph: "", triples: Buffer.from(nq, "utf8") }))
    : m.ends.map((end, i) => ({
        op: "insertQuads" as const,
        graph: "",
        triples: Buffer.from(
          m.bytes.buffer,
          m.bytes.byteOffset + (i ? m.ends[i - 1] : 0),
          end - (i ? m.ends[i - 1] : 0),
        ),
      }));
  const quads = store.apply(ops);
  port.postMessage({ quads, ms: performance.now() - t0 });
});
port.postMessage({ ready: true });
