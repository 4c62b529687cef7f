import { rmSync } from "node:fs";
import { createFeed, loadFeedCameras } from "../src/demo/feed";
import { stopChild, rssBytes, waitUntilQuiet } from "./lib/child";
import { batchUpsert } from "./lib/http-scenarios";
import { below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";
import { readSettings } from "./lib/settings";
import { TRAFFIC_SPARQL_PROLOGUE } from "../src/domain/vocabulary";

/**
 * `npm run bench` part 2: the SPARQL query forms of docs/sparql.md over
 * the HCMC graph (seeded, plus feed ticks with accidents written through NGSI-LD) plus
 * BENCH_SPARQL_EXTRA (default 100,000) extra 10-attribute entities. Each query is sent
 * BENCH_SPARQL_SAMPLES times (default 200), one at a time, and its latency percentiles are reported:
 * first right after the fill, while the service seals the fill's history (the store's own work, beside
 * the queries on two cores), then once the service is quiet (target: p95 < 100 ms). Also: how long the
 * first query after the fill takes.
 */

const PREFIXES = TRAFFIC_SPARQL_PROLOGUE;

/** The query forms of docs/sparql.md, as a data scientist writes them (README guide). */
const QUERIES: Record<string, string> = {
  "active cameras + lat/long": `SELECT ?cam ?lat ?long WHERE {
  ?cam a traffic:TrafficCamera ; traffic:status "active" ; geo:lat ?lat ; geo:long ?long }`,
  "accidents since T, severity": `SELECT ?acc ?ts ?severity WHERE {
  ?acc a traffic:TrafficAccident ; traffic:timestamp ?ts ; traffic:severity ?severity .
  FILTER(?ts >= "2025-12-08T06:00:00Z"^^xsd:dateTime && ?severity IN ("severe", "critical")) }`,
  "cameras within 1 km (geof:distance)": `SELECT ?cam ?d WHERE {
  ?cam a traffic:TrafficCamera ; geosparql:asWKT ?wkt .
  BIND(geof:distance(?wkt, "POINT(106.7009 10.7769)"^^geosparql:wktLiteral, uom:metre) AS ?d)
  FILTER(?d < 1000) } ORDER BY ?d`,
  "accidents per district": `SELECT ?district (COUNT(?acc) AS ?n) WHERE {
  ?acc a traffic:TrafficAccident ; traffic:refDistrict ?district } GROUP BY ?district ORDER BY DESC(?n)`,
};

const say = (s: string): void => void process.stdout.write(`${s}\n`);

async function sparql(url: string, query: string): Promise<{ ms: number; rows: number }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/sparql`, {
    method: "POST",
    headers: { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" },
    body: PREFIXES + query,
  });
  const body = (await res.json()) as { results?: { bindings: unknown[] } };
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`/sparql answered ${res.status}: ${JSON.stringify(body)}`);
  return { ms, rows: body.results?.bindings.length ?? 0 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

interface Latencies {
  rows: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const notes = (r: Latencies): string => `p50 ${r.p50.toFixed(1)} p99 ${r.p99.toFixed(1)}`;

/** Each query of QUERIES sent `samples` times, one at a time: its rows and latency percentiles. */
async function sampleQueries(url: string, samples: number): Promise<Record<string, Latencies>> {
  const results: Record<string, Latencies> = {};
  for (const [name, q] of Object.entries(QUERIES)) {
    const times: number[] = [];
    let n = 0;
    for (let i = 0; i < samples; i++) {
      const r = await sparql(url, q);
      times.push(r.ms);
      n = r.rows;
    }
    times.sort((a, b) => a - b);
    const r = {
      rows: n,
      p50: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      p99: percentile(times, 0.99),
      max: times[times.length - 1],
    };
    results[name] = r;
    say(
      `    ${name}: ${n} rows, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`,
    );
  }
  return results;
}

async function main(): Promise<void> {
  const s = readSettings();
  const extra = Number(process.env.BENCH_SPARQL_EXTRA ?? 100_000);
  const samples = Number(process.env.BENCH_SPARQL_SAMPLES ?? 200);
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    extra,
    samples,
  };
  const rows: Row[] = [];
  const dataDir = freshDataDir();
  say(`citygraph SPARQL bench: HCMC seed + feed + ${extra} extra entities, ${samples} samples per query`);
  const srv = await startServer({ dataDir, env: { SEED: "on" }, timeoutMs: 600_000 });
  try {
    const url = srv.child.url;
    const start = new Date("2025-12-08T00:00:00Z");
    const feed = createFeed({ seed: 11, cameras: loadFeedCameras(), startTime: start, accidentsPerHour: 30 });
    for (const h of [4, 8, 12, 16, 20, 24]) {
      const res = await fetch(`${url}/ngsi-ld/v1/entityOperations/upsert?options=update`, {
        method: "POST",
        headers: { "Content-Type": "application/ld+json" },
        body: JSON.stringify(feed.tick(new Date(start.getTime() + h * 3_600_000))),
      });
      if (res.status >= 300) throw new Error(`feed upsert answered ${res.status}`);
    }
    say(`  feed: 6 ticks written; filling ${extra} extra entities`);
    const batches = Math.ceil(extra / s.batchSize);
    const fill = await batchUpsert(url, s, 0, batches);
    run.fill = { entities: fill.entities, entitiesPerSec: fill.entitiesPerSec };

    const first = await sparql(url, "ASK { ?s ?p ?o }");
    run.firstQueryMs = first.ms;
    run.rssBytes = rssBytes(srv.child.proc.pid);
    say(`  the first query after the fill answered in ${(first.ms / 1000).toFixed(2)} s`);
    rows.push(info("sparql", "first query after the fill", first.ms / 1000, "s"));

    say("  right after the fill (the service sealing its history):");
    const busy = await sampleQueries(url, samples);
    for (const [name, r] of Object.entries(busy))
      rows.push(info("sparql, right after the fill", `${name} (${r.rows} rows) p95`, r.p95, "ms", notes(r)));
    const settleMs = await waitUntilQuiet(srv.child.proc.pid);
    say(`  settled ${(settleMs / 1000).toFixed(0)} s later:`);
    const results = await sampleQueries(url, samples);
    for (const [name, r] of Object.entries(results))
      rows.push(below("sparql, settled", `${name} (${r.rows} rows) p95`, r.p95, "ms", 100, notes(r)));
    run.busy = busy;
    run.settleMs = settleMs;
    run.queries = results;
    rows.push(
      info(
        "RSS",
        "service after the fill",
        run.rssBytes === undefined ? undefined : (run.rssBytes as number) / 1e9,
        "GB",
      ),
    );
  } finally {
    await stopChild(srv.child, 120_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.finished = new Date().toISOString();
  run.rows = rows;
  const file = writeResults(run, "sparql-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file} (and bench/results/sparql-latest.json)`);
}

main().catch((e: unknown) => {
  process.stderr.write(`sparql bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
