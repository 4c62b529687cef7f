import { parentPort, workerData } from "node:worker_threads";
import { mergeSnapshot } from "./snapshot-merge";

/*
 * One compaction off the store worker (docs/design.md "The store lives in a worker thread"): merges the
 * previous snapshot and the journal up to `seq` into new snapshot files (snapshot-merge.ts) and posts
 * back the manifest to write, or `{ error }`. Started per compaction and ended after it, so the memory
 * it used (the journal's last writes) goes back to the system.
 */
const port = parentPort;
if (!port) throw new Error("compaction-worker must run in a worker thread");
const { dir, seq } = workerData as { dir: string; seq: number };
try {
  port.postMessage({ manifest: mergeSnapshot(dir, seq) });
} catch (e) {
  port.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
