import { rmSync } from "node:fs";
import { nativeAddon } from "../src/store/native/native-addon";
import { createFeed, loadFeedCameras } from "../src/demo/feed";
import { peakRssBytes, rssBytes, stopChild } from "./lib/child";
import { below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";
import { TemporalIndex } from "../src/ngsi-ld/temporal/temporal-index";
import type { RowTuple } from "../src/ngsi-ld/temporal/history-record";
import { TRAFFIC_SPARQL_PROLOGUE } from "../src/domain/vocabulary";
import { segmentTriples } from "../src/ngsi-ld/temporal/segment-graph";
import { SEGMENT_MS } from "../src/ngsi-ld/temporal/segment-ledger";

/**
 * `npm run bench` part 3: one day of the HCMC feed (701 cameras + 42 stations,
 * a tick every 5 minutes = 288 ticks) written through the broker's own /entityOperations/upsert, so the
 * history is appended by the normal write path and sealed into the graph (hourly segments), plus 7 days of
 * one camera's flow through POST /temporal/entities. Reports the service's RSS once the segments are sealed,
 * the graph copy's quads and bytes per instance, and the p95 of three temporal queries: lastN=100 of one
 * entity (< 20 ms), hourly avg over 7 days of one attribute (< 50 ms), one attribute of 100 entities over
 * one hour (< 50 ms), and of the README's SPARQL hourly avg from the segments. BENCH_TEMPORAL_TICKS
 * (default 288), BENCH_TEMPORAL_SAMPLES (default 200), BENCH_TEMPORAL_UPSERT_TICKS (ticks written through
 * upsert, default all; the others go through POST /temporal/entities). The service's environment is the
 * bench's (e.g. STORE_RECLAIM_QUADS); TEMPORAL_SEAL_INTERVAL_MS defaults to 2 s (3600000 = no sealing
 * before shutdown, to measure the service without the graph copy).
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const TICK = 5 * 60_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function timed(url: string, samples: number, headers: Record<string, string> = {}) {
  const times: number[] = [];
  let last: unknown;
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    last = await res.json();
    times.push(performance.now() - t0);
    if (res.status >= 300) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(last)}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), p99: percentile(times, 0.99), last };
}

/**
 * Bytes per instance of the in-memory history: 700 entities x 8
 * attributes x 288 instances (1.6M) applied to a TemporalIndex in this process, heap + array buffers before
 * and after (global.gc when run with --expose-gc).
 */
function indexBytesPerInstance(): { rows: Row[]; index: TemporalIndex } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const mem = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = mem();
  const index = new TemporalIndex();
  const t0 = Date.parse("2025-12-08T00:00:00Z");
  let n = 0;
  for (let k = 0; k < 288; k++) {
    for (let e = 0; e < 700; e++) {
      const r: RowTuple[] = [];
      for (let a = 0; a < 8; a++) {
        const t = t0 + k * TICK;
        r.push([
          `https://w3id.org/citygraph/traffic#a${a}`,
          index.newIid(),
          t,
          t,
          t,
          (e * 7 + k * 3 + a) % 500,
          '{"type":"Property"}',
        ]);
      }
      index.apply({
        op: "put",
        t: "",
        e: `urn:ngsi-ld:TrafficFlowObserved:${e}`,
        ty: ["https://smartdatamodels.org/dataModel.Transportation/TrafficFlowObserved"],
        at: t0 + k * TICK,
        r,
      });
      n += 8;
    }
  }
  gc?.();
  const bytes = mem() - before;
  const st = index.stats();
  say(
    `  in-memory history: ${n} instances, ${(bytes / n).toFixed(1)} B/instance (arrays ${(st.bytes / n).toFixed(1)} B)`,
  );
  return {
    index,
    rows: [
      info("temporal memory", `bytes per instance (${(n / 1e6).toFixed(2)}M in index)`, bytes / n, "B"),
      info("temporal memory", "of which typed arrays", st.bytes / n, "B"),
    ],
  };
}

/**
 * Bytes per instance of the graph copy: the hourly segments of the same
 * 1.6M instances loaded into an in-memory native Oxigraph store in this process (RSS before and after).
 */
function graphBytesPerInstance(index: TemporalIndex): Row[] {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().rss;
  const store = nativeAddon().NativeStore.inMemory();
  let n = 0;
  let segments = 0;
  for (const e of index.entities("")) {
    const s = [...e.attrs.values()][0];
    for (
      let h = Math.floor(s.time(0) / SEGMENT_MS) * SEGMENT_MS;
      h <= s.time(s.length - 1);
      h += SEGMENT_MS
    ) {
      const nt = segmentTriples(index, e, h);
      if (nt === null) continue;
      store.apply([{ op: "insert", graph: `urn:g:${segments}`, triples: Buffer.from(nt, "utf8") }]);
      segments++;
    }
    for (const x of e.attrs.values()) n += x.length;
  }
  gc?.();
  const bytes = process.memoryUsage().rss - before;
  const quads = store.countQuads();
  say(
    `  graph copy: ${segments} segments, ${quads} quads, ${(bytes / n).toFixed(1)} B/instance, ${(bytes / quads).toFixed(0)} B/quad`,
  );
  return [
    info("temporal memory", `graph copy: segments (${quads} quads)`, segments, ""),
    info("temporal memory", "graph copy: bytes per instance (Oxigraph, RSS delta)", bytes / n, "B"),
  ];
}

async function main(): Promise<void> {
  const ticks = Number(process.env.BENCH_TEMPORAL_TICKS ?? 288);
  const samples = Number(process.env.BENCH_TEMPORAL_SAMPLES ?? 200);
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    ticks,
    samples,
  };
  const rows: Row[] = [];
  const dataDir = freshDataDir();
  say(
    `citygraph temporal bench: ${ticks} feed ticks of 5 min through NGSI-LD upsert, ${samples} samples per query`,
  );
  const mem = indexBytesPerInstance();
  rows.push(...mem.rows, ...graphBytesPerInstance(mem.index));
  const srv = await startServer({
    dataDir,
    env: {
      SEED: "on",
      TEMPORAL_PAGE_INSTANCES: "100000",
      // its day of the feed is dated in the past: measured raw, as written
      TEMPORAL_RAW_RETENTION: "0",
      TEMPORAL_HOURLY_RETENTION: "0",
      TEMPORAL_SEAL_INTERVAL_MS: process.env.TEMPORAL_SEAL_INTERVAL_MS ?? "2000",
    },
    timeoutMs: 600_000,
  });
  try {
    const url = srv.child.url;
    const api = `${url}/ngsi-ld/v1`;
    const start = new Date("2025-12-08T00:00:00Z");
    const feed = createFeed({ seed: 11, cameras: loadFeedCameras(), startTime: start });
    const t0 = performance.now();
    let ids: string[] = [];
    let ctx: unknown;
    const health = async () =>
      ((await (await fetch(`${url}/health`)).json()) as { store: { quads: number; lastSeq: number } }).store;
    const seedQuads = (await health()).quads;
    // every tick through the normal write path (the history hook); BENCH_TEMPORAL_UPSERT_TICKS sends the
    // ticks after it through POST /temporal/entities instead, one request per entity
    const viaUpsert = Math.min(ticks, Number(process.env.BENCH_TEMPORAL_UPSERT_TICKS ?? ticks));
    const later = new Map<string, { type: string; attrs: Map<string, unknown[]> }>();
    for (let k = 1; k <= ticks; k++) {
      const docs = feed.tick(new Date(start.getTime() + k * TICK));
      if (k === 1) {
        ids = docs.filter((d) => d.type === "TrafficFlowObserved").map((d) => d.id);
        ctx = docs[0]["@context"];
      }
      if (k > viaUpsert) {
        for (const d of docs) {
          let e = later.get(d.id);
          if (!e) later.set(d.id, (e = { type: d.type, attrs: new Map() }));
          for (const [name, v] of Object.entries(d)) {
            if (name === "id" || name === "type" || name === "@context" || typeof v !== "object" || !v)
              continue;
            if (!("observedAt" in v)) continue;
            const list = e.attrs.get(name) ?? [];
            list.push(v);
            e.attrs.set(name, list);
          }
        }
        continue;
      }
      const res = await fetch(`${api}/entityOperations/upsert?options=update`, {
        method: "POST",
        headers: { "Content-Type": "application/ld+json" },
        body: JSON.stringify(docs),
      });
      if (res.status >= 300) throw new Error(`feed upsert answered ${res.status}: ${await res.text()}`);
    }
    say(`  ${viaUpsert} ticks via upsert (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    for (const [id, e] of later) {
      const body: Record<string, unknown> = { id, type: e.type, "@context": ctx };
      for (const [name, list] of e.attrs) body[name] = list;
      const res = await fetch(`${api}/temporal/entities`, {
        method: "POST",
        headers: { "Content-Type": "application/ld+json" },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`temporal upsert answered ${res.status}: ${await res.text()}`);
    }
    later.clear();
    const loadS = (performance.now() - t0) / 1000;
    // 7 days of one flow entity's intensity through the temporal API (the aggregation scenario)
    const week = "urn:ngsi-ld:TrafficFlowObserved:bench-week";
    const intensity = Array.from({ length: 7 * 288 }, (_, i) => ({
      type: "Property",
      value: 100 + ((i * 37) % 250),
      observedAt: new Date(start.getTime() - 7 * 86_400_000 + i * TICK).toISOString(),
    }));
    const w = await fetch(`${api}/temporal/entities`, {
      method: "POST",
      headers: { "Content-Type": "application/ld+json" },
      body: JSON.stringify({ id: week, type: "TrafficFlowObserved", intensity, "@context": ctx }),
    });
    if (w.status >= 300) throw new Error(`temporal create answered ${w.status}: ${await w.text()}`);
    // wait for the sealer (every 2 s here) to write the last hours: the store's commits stop (the segments
    // are journal-only, so the store's in-memory quads do not show them)
    let quads = -1;
    for (let stable = 0, seq = -1; stable < 3;) {
      await new Promise((r) => setTimeout(r, 2500));
      const h = await health();
      stable = h.lastSeq === seq ? stable + 1 : 0;
      seq = h.lastSeq;
      quads = h.quads;
    }
    const rss = rssBytes(srv.child.proc.pid);
    const peak = peakRssBytes(srv.child.proc.pid);
    run.graphQuads = { seed: seedQuads, after: quads };
    rows.push(info("temporal graph", "store quads after the seed", seedQuads, ""));
    rows.push(info("temporal graph", "store quads after the day (entities and sealed segments)", quads, ""));
    if (peak !== undefined) rows.push(info("RSS", "peak during the load", peak / 1e9, "GB"));
    const stats = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
    run.loadSeconds = loadS;
    run.rssBytes = rss;
    run.health = stats;
    say(`  loaded in ${loadS.toFixed(0)} s; RSS ${rss === undefined ? "?" : (rss / 1e9).toFixed(2)} GB`);
    rows.push(
      info(
        "temporal load",
        `${ticks} ticks (${viaUpsert} via upsert, rest via /temporal/entities)`,
        loadS,
        "s",
      ),
    );
    rows.push(
      below("RSS", "service after one day of history", rss === undefined ? undefined : rss / 1e9, "GB", 1.5),
    );

    const jsonCtx = Array.isArray(ctx) ? ctx[0] : ctx;
    const L = {
      Link: `<${String(jsonCtx)}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
    };
    const whole = await timed(`${api}/temporal/entities/${encodeURIComponent(ids[0])}`, 1, L);
    const perEntity = Object.values(whole.last as Record<string, unknown>)
      .filter((v) => Array.isArray(v))
      .reduce((n: number, v) => n + (v as unknown[]).length, 0);
    run.flowInstancesPerEntity = perEntity;
    run.flowInstancesEstimate = perEntity * ids.length;
    rows.push(
      info(
        "temporal load",
        `attribute instances (~${perEntity} per flow entity x ${ids.length})`,
        (perEntity * ids.length) / 1e6,
        "M",
      ),
    );
    const one = encodeURIComponent(ids[Math.floor(ids.length / 2)]);
    const lastN = await timed(`${api}/temporal/entities/${one}?lastN=100`, samples, L);
    const inst = Object.entries(lastN.last as Record<string, unknown>)
      .filter(([, v]) => Array.isArray(v))
      .reduce((n, [, v]) => n + (v as unknown[]).length, 0);
    rows.push(
      below(
        "temporal",
        `lastN=100 of one entity (${inst} instances) p95`,
        lastN.p95,
        "ms",
        20,
        `p50 ${lastN.p50.toFixed(1)}`,
      ),
    );
    const hourly = await timed(
      `${api}/temporal/entities/${encodeURIComponent(week)}?attrs=intensity&options=aggregatedValues&aggrMethods=avg&aggrPeriodDuration=PT1H`,
      samples,
      L,
    );
    const periods = ((hourly.last as { intensity?: { avg?: unknown[] } }).intensity?.avg ?? []).length;
    rows.push(
      below(
        "temporal",
        `hourly avg over 7 days, one attribute (${periods} periods) p95`,
        hourly.p95,
        "ms",
        50,
        `p50 ${hourly.p50.toFixed(1)}`,
      ),
    );
    const from = new Date(start.getTime() + 12 * 3_600_000).toISOString();
    const to = new Date(start.getTime() + 13 * 3_600_000).toISOString();
    const hundred = ids.slice(0, 100).join(",");
    const many = await timed(
      `${api}/temporal/entities?id=${encodeURIComponent(hundred)}&type=TrafficFlowObserved&attrs=intensity&timerel=between&timeAt=${from}&endTimeAt=${to}&limit=100&options=temporalValues`,
      samples,
      L,
    );
    const got = (many.last as unknown[]).length;
    rows.push(
      below(
        "temporal",
        `intensity of ${got} entities over one hour p95`,
        many.p95,
        "ms",
        50,
        `p50 ${many.p50.toFixed(1)}`,
      ),
    );
    // the README's SPARQL: hourly average speed of one camera from the history segments
    const sparqlHourly = `${TRAFFIC_SPARQL_PROLOGUE}SELECT ?start ?avg WHERE {
  GRAPH ?seg { ?seg cgh:entity <${ids[Math.floor(ids.length / 2)]}> ; cgh:start ?start ;
                    traffic:averageVehicleSpeed ?avg }
} ORDER BY ?start`;
    const sparqlOnce = async () => {
      const res = await fetch(`${url}/sparql`, {
        method: "POST",
        headers: { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" },
        body: sparqlHourly,
      });
      const body = (await res.json()) as { results?: { bindings: unknown[] } };
      if (res.status !== 200) throw new Error(`/sparql answered ${res.status}: ${JSON.stringify(body)}`);
      return body.results?.bindings.length ?? 0;
    };
    const r0 = performance.now();
    const hours = await sparqlOnce();
    const firstS = (performance.now() - r0) / 1000;
    const st: number[] = [];
    for (let i = 0; i < samples; i++) {
      const t1 = performance.now();
      await sparqlOnce();
      st.push(performance.now() - t1);
    }
    st.sort((a, b) => a - b);
    const rssSparql = rssBytes(srv.child.proc.pid);
    rows.push(info("temporal graph", "first SPARQL query", firstS, "s"));
    rows.push(
      info(
        "temporal graph",
        `SPARQL hourly avg speed of one camera from segments (${hours} hours) p95`,
        percentile(st, 0.95),
        "ms",
        `p50 ${percentile(st, 0.5).toFixed(1)}`,
      ),
    );
    if (rssSparql !== undefined) rows.push(info("RSS", "service with SPARQL in use", rssSparql / 1e9, "GB"));
    run.queries = { lastN, hourly: { ...hourly, last: undefined }, many: { ...many, last: undefined } };
    (run.queries as Record<string, unknown>).lastN = { ...lastN, last: undefined, instances: inst };
    say(
      `  lastN p95 ${lastN.p95.toFixed(1)} ms; hourly avg p95 ${hourly.p95.toFixed(1)} ms; 100 entities p95 ${many.p95.toFixed(1)} ms`,
    );
  } finally {
    await stopChild(srv.child, 120_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.finished = new Date().toISOString();
  run.rows = rows;
  const file = writeResults(run, "temporal-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file} (and bench/results/temporal-latest.json)`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
