import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createFeed, loadFeedCameras } from "../src/demo/feed";
import type { Entity } from "../src/ngsi-ld/model/entity";
import { pickEntity, renderPicked } from "../src/ngsi-ld/temporal/render-temporal";
import { TemporalService } from "../src/ngsi-ld/temporal/temporal-service";
import { compileContext } from "../src/rdf/contexts/compile-context";
import type { GraphStore } from "../src/store/graph-store";
import { openGraphStore } from "../src/store/open-store";
import { formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";

/**
 * A year of the live feed on one machine, fast-forwarded: the feed's 721 cameras (and its weather,
 * air-quality and accident entities) tick after tick with synthetic timestamps, written through the
 * history's own write path (`TemporalService.recordChange`, the hook of every entity commit), sealed into
 * a real store (journal and snapshots on disk, history segments journaled as in the service), with the
 * retention pass run once per simulated hour at the simulated time. At each checkpoint (every 30 days,
 * and at the end) it reports the process RSS, the data directory's size, the quads of history in the
 * graph, and the answer time of a weekly statistic (aggregatedValues of every flow entity's intensity,
 * sum and avg per day over the last 7 days). Options: `--days N` (default 365), `--tick-min M` (minutes
 * between feed ticks, default 15: the feed's backfill step), `--every D` (days between checkpoints).
 * Windows: the service's defaults unless TEMPORAL_RAW_RETENTION / TEMPORAL_HOURLY_RETENTION /
 * TEMPORAL_RETENTION (days) are set.
 */
const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const DAY = 86_400_000;
const HOUR = 3_600_000;
const days = arg("days", 365);
const tickMs = arg("tick-min", 15) * 60_000;
const every = arg("every", 30);
const envDays = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def) * DAY;
const windows = {
  rawMs: envDays("TEMPORAL_RAW_RETENTION", 2),
  hourlyMs: envDays("TEMPORAL_HOURLY_RETENTION", 14),
  totalMs: envDays("TEMPORAL_RETENTION", 0),
};

const readJson = (f: string) =>
  (
    JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../contexts", f), "utf8")) as {
      "@context": object;
    }
  )["@context"];

/** Bytes under `dir` (du). */
function diskBytes(dir: string): number {
  return Number(execFileSync("du", ["-sb", dir]).toString().split("\t")[0]);
}

/** Live history graphs and their quads, as the sealer writes and drops them. */
function countingStore(store: GraphStore): { store: Pick<GraphStore, "commit">; quads: () => number } {
  const graphs = new Map<string, number>();
  let quads = 0;
  return {
    quads: () => quads,
    store: {
      commit: ((tenant, writes, meta) => {
        for (const w of writes) {
          quads -= graphs.get(w.graph) ?? 0;
          const n = w.triples ? w.triples.split("\n").length - 1 : 0;
          if (n) graphs.set(w.graph, n);
          else graphs.delete(w.graph);
          quads += n;
        }
        return store.commit(tenant, writes, meta);
      }) as GraphStore["commit"],
    },
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-retention-"));
  const ctx = compileContext([readJson("ngsi-ld-core-context-v1.8.jsonld"), readJson("traffic.jsonld")]);
  const store = await openGraphStore({ dataDir });
  const counted = countingStore(store);
  const temporal = TemporalService.open({
    dir: path.join(dataDir, "history"),
    retention: windows,
    retentionEveryMs: 86_400_000, // the bench runs the pass itself, at simulated time
    compactBytes: 128 * 1024 * 1024,
    sealEveryMs: 86_400_000,
  });
  temporal.attachGraph(counted.store);
  const cameras = loadFeedCameras();
  const start = Date.UTC(2025, 0, 1);
  const feed = createFeed({ seed: 7, cameras, startTime: new Date(start) });
  const flowIds = cameras.map((c) => `urn:ngsi-ld:TrafficFlowObserved:${c.id}`);
  const intensity = new Set([ctx.expandTerm("intensity")]);
  const weekly = (now: number): number => {
    const t0 = performance.now();
    const q = {
      timerel: "between" as const,
      timeAt: now - 7 * DAY,
      endTimeAt: now,
      timeproperty: "observedAt" as const,
      aggregate: { methods: ["sum" as const, "avg" as const], periodMs: DAY },
    };
    const view = {
      representation: "aggregatedValues" as const,
      sysAttrs: false,
      attrs: intensity,
      pageLimit: 1e9,
    };
    for (const id of flowIds) {
      const e = temporal.index.entity("", id);
      if (e) renderPicked(temporal.index, pickEntity(temporal.index, e, q, view), q, view, ctx);
    }
    return performance.now() - t0;
  };
  const checkpoints: Record<string, number>[] = [];
  const t0 = performance.now();
  let before = new Map<string, Entity>();
  let seq = 0; // the journal seq each write would have had
  for (let t = start + tickMs; t <= start + days * DAY; t += tickMs) {
    const docs = feed.tick(new Date(t)) as unknown as Entity[];
    const after = new Map<string, Entity | null>(docs.map((d) => [d.id, d]));
    await temporal.recordChange("", { operation: "upsert", after, before, ctx }, ++seq);
    before = new Map(docs.map((d) => [d.id, d]));
    if (t % HOUR === 0) {
      await temporal.retention?.run(t);
      await temporal.seal();
    }
    const day = (t - start) / DAY;
    if (t % DAY === 0 && (day % every === 0 || day === days)) {
      await temporal.seal();
      const s = temporal.index.stats();
      const answers = [weekly(t), weekly(t), weekly(t)].sort((a, b) => a - b);
      const c = {
        day,
        rssMB: process.memoryUsage().rss / 1e6,
        diskMB: diskBytes(dataDir) / 1e6,
        historyQuads: counted.quads(),
        rawInstances: s.instances,
        aggregateBuckets: s.buckets,
        weeklyStatMs: answers[1],
        wallS: (performance.now() - t0) / 1000,
      };
      checkpoints.push(c);
      process.stdout.write(`${JSON.stringify(c)}\n`);
    }
  }
  await temporal.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const rows: Row[] = checkpoints.flatMap((c) => [
    info("retention", `day ${c.day}: RSS`, c.rssMB, "MB"),
    info("retention", `day ${c.day}: data dir`, c.diskMB, "MB"),
    info("retention", `day ${c.day}: history quads in the graph`, c.historyQuads, "quads"),
    info("retention", `day ${c.day}: weekly statistic (721 cameras)`, c.weeklyStatMs, "ms"),
  ]);
  process.stdout.write(formatTable(rows) + "\n");
  const file = writeResults(
    { machine: machineFacts(), days, tickMinutes: tickMs / 60_000, windows, checkpoints, rows },
    "retention-",
  );
  process.stdout.write(`results: ${file}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
