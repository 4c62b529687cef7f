import http from "node:http";
import { rmSync } from "node:fs";
import { stopChild } from "./lib/child";
import { formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer, type StartedServer } from "./lib/server";

/**
 * `npm run bench` part 5: a distributed query through one registered context source (ETSI GS CIM 009
 * v1.8 §4.3.6). Two services as child processes: the *source* holds BENCH_FED_ENTITIES (default 200)
 * Vehicles; the *broker* holds none and has one inclusive registration of the source for type Vehicle.
 * BENCH_FED_REQUESTS (default 500) sequential GET /entities?type=Vehicle&limit=20 go to the source
 * directly, then as many to the broker (which sends the same query to the source and merges the
 * answer with its own, empty one). Figures: p50/p99 of each, and the broker's overhead over the
 * source's own answer (broker minus source, per percentile). One connection, keep-alive: latency, not
 * throughput.
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function num(name: string, def: number): number {
  const v = Number(process.env[name] ?? def);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
}

/** One request; resolves with status and body once the answer is read. */
function request(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (data !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = Buffer.byteLength(data);
    }
    const req = http.request(base + path, { method, agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(data);
  });
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Times `n` sequential GETs of `path` (after 50 unmeasured); ms, sorted. */
async function timeGets(base: string, path: string, n: number, expectCount: number): Promise<number[]> {
  const one = async (): Promise<number> => {
    const t = process.hrtime.bigint();
    const r = await request(base, "GET", path);
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}`);
    const got = (JSON.parse(r.text) as unknown[]).length;
    if (got !== expectCount) throw new Error(`GET ${path} gave ${got} entities, expected ${expectCount}`);
    return ms;
  };
  for (let i = 0; i < 50; i++) await one();
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await one());
  return out.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const entities = num("BENCH_FED_ENTITIES", 200);
  const requests = num("BENCH_FED_REQUESTS", 500);
  const dirs = [freshDataDir(), freshDataDir()];
  const started: StartedServer[] = [];
  const rows: Row[] = [];
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    entities,
    requests,
  };
  try {
    const source = await startServer({ dataDir: dirs[0] });
    started.push(source);
    const broker = await startServer({ dataDir: dirs[1] });
    started.push(broker);
    const src = source.child.url;
    const list = Array.from({ length: entities }, (_, i) => ({
      id: `urn:ngsi-ld:Vehicle:bench-${i}`,
      type: "Vehicle",
      speed: { type: "Property", value: i % 90 },
      brandName: { type: "Property", value: `brand-${i % 7}` },
    }));
    const made = await request(src, "POST", "/ngsi-ld/v1/entityOperations/create", list);
    if (made.status !== 201) throw new Error(`batch create answered ${made.status}: ${made.text}`);
    const reg = await request(broker.child.url, "POST", "/ngsi-ld/v1/csourceRegistrations", {
      type: "ContextSourceRegistration",
      information: [{ entities: [{ type: "Vehicle" }] }],
      endpoint: src,
    });
    if (reg.status !== 201) throw new Error(`registration answered ${reg.status}: ${reg.text}`);
    const path = "/ngsi-ld/v1/entities?type=Vehicle&limit=20";
    say(`[federation] ${requests} sequential GET ${path}: source directly, then through the broker`);
    const direct = await timeGets(src, path, requests, 20);
    const through = await timeGets(broker.child.url, path, requests, 20);
    const p = (s: number[], q: number) => percentile(s, q);
    run.sourceMs = { p50: p(direct, 50), p99: p(direct, 99) };
    run.brokerMs = { p50: p(through, 50), p99: p(through, 99) };
    rows.push(
      info(
        "federation",
        "source's own answer p50",
        p(direct, 50),
        "ms",
        `p99 ${p(direct, 99).toFixed(2)} ms`,
      ),
    );
    rows.push(
      info(
        "federation",
        "through the broker p50",
        p(through, 50),
        "ms",
        `p99 ${p(through, 99).toFixed(2)} ms`,
      ),
    );
    rows.push(
      info("federation", "overhead p50", p(through, 50) - p(direct, 50), "ms", "broker minus source"),
    );
    rows.push(
      info("federation", "overhead p99", p(through, 99) - p(direct, 99), "ms", "broker minus source"),
    );
  } finally {
    for (const s of started) await stopChild(s.child);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  run.finished = new Date().toISOString();
  run.rows = rows;
  const file = writeResults(run, "federation-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
