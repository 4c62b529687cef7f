import { rmSync } from "node:fs";
import { rssBytes, stopChild } from "./lib/child";
import { below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";
import { instancesQuery, WEEK_ATTRS, weekOfCamera } from "../test/integration/helpers/week-query";

/**
 * `npm run bench` part: every observation from SPARQL (docs/sparql.md "Every observation"). A week of one
 * camera every minute (speed and intensity, 20,160 instances) is written through the temporal API and
 * sealed; then the week-of-one-camera query of the docs runs BENCH_INSTANCES_SAMPLES times (default 50):
 * the first answer (which builds the instance graph), p50 / p95 of the next (target p95 < 500 ms),
 * and the service's RSS before and after the instance graph is built.
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const ID = "urn:ngsi-ld:TrafficFlowObserved:benchweek";

async function post(url: string, path: string, body: unknown): Promise<void> {
  const r = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (r.status >= 300) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
}

async function sparql(url: string, q: string): Promise<{ ms: number; rows: number }> {
  const t0 = performance.now();
  const r = await fetch(`${url}/sparql`, {
    method: "POST",
    headers: { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" },
    body: q,
  });
  const body = (await r.json()) as { results?: { bindings: unknown[] } };
  if (r.status !== 200) throw new Error(`/sparql answered ${r.status}: ${JSON.stringify(body)}`);
  return { ms: performance.now() - t0, rows: body.results?.bindings.length ?? 0 };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function main(): Promise<void> {
  const samples = Number(process.env.BENCH_INSTANCES_SAMPLES ?? 50);
  const rows: Row[] = [];
  const run: Record<string, unknown> = { started: new Date().toISOString(), machine: machineFacts() };
  say(`citygraph SPARQL instances bench: ${JSON.stringify(run.machine)}`);
  const dataDir = freshDataDir();
  const env = {
    TEMPORAL_RAW_RETENTION: "9d",
    TEMPORAL_HOURLY_RETENTION: "14d",
    TEMPORAL_SEAL_INTERVAL_MS: "100",
    SPARQL_TIMEOUT: "120s", // the first query builds the graph: on a loaded machine it can take more than 10 s
  };
  const { child } = await startServer({ dataDir, env });
  try {
    const day = 86_400_000;
    const start = Math.floor(Date.now() / day) * day - 8 * day;
    say("[1/2] a week of one camera, every minute, through the temporal API");
    await post(child.url, "/ngsi-ld/v1/temporal/entities", weekOfCamera(ID, start, 1, 1));
    for (let d = 1; d < 7; d++) {
      const { id: _id, type: _type, ...attrs } = weekOfCamera(ID, start + d * day, 1, 1);
      await post(child.url, `/ngsi-ld/v1/temporal/entities/${ID}/attrs`, attrs);
    }
    const count = `SELECT (COUNT(?s) AS ?n) WHERE { GRAPH ?s { ?s <https://w3id.org/citygraph/history#entity> <${ID}> } }`;
    for (let i = 0; i < 600; i++) {
      const r = await fetch(`${child.url}/sparql`, {
        method: "POST",
        headers: { "Content-Type": "application/sparql-query", Accept: "text/csv" },
        body: count,
      });
      if ((await r.text()).trim().endsWith(String(7 * 24))) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    say("[2/2] the week-of-one-camera query");
    const q = instancesQuery(
      ID,
      WEEK_ATTRS.speed,
      new Date(start).toISOString(),
      new Date(start + 7 * day).toISOString(),
    );
    const rssBefore = rssBytes(child.proc.pid);
    const first = await sparql(child.url, q);
    const rssAfter = rssBytes(child.proc.pid);
    const times: number[] = [];
    for (let i = 0; i < samples; i++) times.push((await sparql(child.url, q)).ms);
    run.first = first;
    run.times = times;
    rows.push(
      info(
        "sparql",
        "week of one camera: first query (builds the graph)",
        first.ms,
        "ms",
        `${first.rows} rows`,
      ),
    );
    rows.push(info("sparql", "week of one camera: p50", pct(times, 0.5), "ms"));
    rows.push(below("sparql", "week of one camera: p95", pct(times, 0.95), "ms", 500, `${samples} queries`));
    if (rssBefore !== undefined && rssAfter !== undefined)
      rows.push(
        info("sparql", "RSS of building the instance graph (20,160 instances)", rssAfter - rssBefore, "B"),
      );
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.rows = rows;
  run.finished = new Date().toISOString();
  const file = writeResults(run, "sparql-instances-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
