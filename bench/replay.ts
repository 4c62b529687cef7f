import path from "node:path";
import { stopChild } from "./lib/child";
import { batchUpsert } from "./lib/http-scenarios";
import { freshDataDir, startServer } from "./lib/server";
import { readSettings } from "./lib/settings";
import { HISTORY_GRAPH_PREFIX } from "../src/store/graph-store";
import { replayJournal } from "../src/store/journal/journal-replay";
import { lineCount } from "../src/store/worker/ntriples-text";
import { preGrowWasmMemory, recover } from "../src/store/worker/recovery";
import { TenantDatasets } from "../src/store/worker/tenant-datasets";

/**
 * Start-up replay alone (docs/decisions/0007-lenient-trusted-loads.md).
 * `node dist/bench/replay.js build <batches> [<batches of replaces>]` starts the service with compaction
 * off, upserts that many batches of BENCH_BATCH_SIZE new bench entities (then replaces the first ones
 * again), stops it and prints the DATA_DIR: a journal without a snapshot. `node dist/bench/replay.js time
 * <DATA_DIR>` recovers that directory in this process as the store worker does (128 MiB WASM pre-growth,
 * history graphs disk-only) and prints wall and CPU time, records and quads; it writes nothing. With
 * `REPLAY_COMPARE=1` it then dumps the recovered state as N-Quads and times loading that as a snapshot
 * (loadSnapshot) into fresh datasets: the same final state by the snapshot path. `scan <DATA_DIR>` only
 * decodes the journal and counts what a replay loads (writes, disk-only writes, replaced graphs, quads).
 */
/** Runs `fn` and returns its value with the wall and CPU (user + system) milliseconds it took. */
function timed<T>(fn: () => T): { value: T; ms: number; cpuMs: number } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, ms: Math.round(performance.now() - t0), cpuMs: Math.round((c.user + c.system) / 1000) };
}

async function main(): Promise<void> {
  const [mode, arg, arg2] = process.argv.slice(2);
  if (mode === "build") {
    const s = readSettings();
    const dataDir = freshDataDir();
    const srv = await startServer({ dataDir, env: { JOURNAL_COMPACT_BYTES: String(60 * 1024 ** 3) } });
    try {
      await batchUpsert(srv.child.url, s, 0, Number(arg ?? "30"));
      if (arg2) await batchUpsert(srv.child.url, s, 0, Number(arg2));
    } finally {
      await stopChild(srv.child);
    }
    console.log(dataDir);
    return;
  }
  if (mode === "time" && arg) {
    const t0 = performance.now();
    preGrowWasmMemory(128 * 1024 * 1024);
    const preGrowMs = Math.round(performance.now() - t0);
    const ds = new TenantDatasets(Number.MAX_SAFE_INTEGER, [HISTORY_GRAPH_PREFIX]);
    const rec = timed(() => recover(path.join(arg, "store"), ds, () => undefined, true));
    console.log(
      JSON.stringify({
        preGrowMs,
        recoverMs: rec.ms,
        recoverCpuMs: rec.cpuMs,
        records: rec.value.replayed,
        quads: ds.quads,
        netQuadsPerS: Math.round(ds.quads / (rec.ms / 1000)),
      }),
    );
    if (process.env.REPLAY_COMPARE === "1") {
      const nq = Buffer.from(ds.storeFor(ds.tenants()[0])!.dump({ format: "application/n-quads" }));
      ds.clear();
      global.gc?.();
      const ds2 = new TenantDatasets(Number.MAX_SAFE_INTEGER, [HISTORY_GRAPH_PREFIX]);
      const load = timed(() => ds2.loadSnapshot("", [nq]));
      console.log(
        JSON.stringify({
          snapshotLoadMs: load.ms,
          snapshotCpuMs: load.cpuMs,
          quads: ds2.quads,
          bytes: nq.length,
        }),
      );
    }
    return;
  }
  if (mode === "scan" && arg) {
    // what the replay has to load: graph writes, the quads they load, the graphs they replace or delete
    const seen = new Set<string>();
    const n = { records: 0, writes: 0, diskOnly: 0, replaces: 0, deletes: 0, loadedQuads: 0, decodeMs: 0 };
    const t0 = performance.now();
    replayJournal(
      path.join(arg, "store"),
      0,
      (r) => {
        n.records++;
        for (const w of r.writes) {
          n.writes++;
          if (w.graph.startsWith(HISTORY_GRAPH_PREFIX)) n.diskOnly++;
          else if (w.triples === null) n.deletes++;
          else {
            if (seen.has(w.graph)) n.replaces++;
            seen.add(w.graph);
            n.loadedQuads += lineCount(w.triples);
          }
        }
      },
      true,
    );
    n.decodeMs = Math.round(performance.now() - t0);
    console.log(JSON.stringify(n));
    return;
  }
  throw new Error("usage: replay.js build <batches> [<replace batches>] | time <DATA_DIR> | scan <DATA_DIR>");
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
