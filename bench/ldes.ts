import { rmSync } from "node:fs";
import { bareKoa, flags, withCpu } from "./lib/ceilings";
import { stopChild } from "./lib/child";
import { runLoad } from "./lib/load";
import { atLeast, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";
import { readSettings } from "./lib/settings";

/**
 * `npm run bench` part: the Linked Data Event Stream at `/ldes` (docs/ldes.md). (1) the bare-Koa ceiling;
 * (2) serving one closed page of BENCH_LDES_PAGE_MEMBERS (default 100) versions, GET with autocannon:
 * pages per second against the ceiling (target >= 0.3x) and members per second served; (3) a replication
 * of the seeded city by ldes-client from empty: time, bytes and members per second.
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const PAGE = "5s";
const TENANT = "ldesbench";

type LdesClientModule = typeof import("ldes-client");
const importEsm = new Function("s", "return import(s)") as (s: string) => Promise<LdesClientModule>;

/** Writes `n` small entities in tenant TENANT (one version each, in one page). */
async function writeVersions(url: string, n: number): Promise<void> {
  const docs = Array.from({ length: n }, (_, i) => ({
    id: `urn:ngsi-ld:TrafficFlowObserved:ldes${i}`,
    type: "https://w3id.org/citygraph/traffic#TrafficFlowObserved",
    "https://w3id.org/citygraph/traffic#intensity": { type: "Property", value: i, unitCode: "E50" },
    "https://w3id.org/citygraph/traffic#averageVehicleSpeed": {
      type: "Property",
      value: 30.5,
      observedAt: new Date().toISOString(),
    },
  }));
  const r = await fetch(`${url}/ngsi-ld/v1/entityOperations/upsert`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "NGSILD-Tenant": TENANT },
    body: JSON.stringify(docs),
  });
  if (r.status >= 300) throw new Error(`upsert answered ${r.status}: ${await r.text()}`);
}

/** The page links of a tenant's view, oldest first. */
async function pages(url: string, tenant?: string): Promise<string[]> {
  const headers: Record<string, string> = { Accept: "application/n-triples" };
  if (tenant) headers["NGSILD-Tenant"] = tenant;
  const text = await (await fetch(`${url}/ldes/view`, { headers })).text();
  return [...new Set([...text.matchAll(/tree#node> <([^>]+)>/g)].map((m) => m[1]))].sort();
}

/** ldes-client replicates the default tenant's stream from empty; counts members, bytes sent and time. */
async function replicate(
  url: string,
): Promise<{ members: number; bytes: number; ms: number; pages: number }> {
  const { intoConfig, replicateLDES } = await importEsm("ldes-client");
  let bytes = 0;
  let fetched = 0;
  const counting: typeof fetch = async (input, init) => {
    const r = await fetch(input, init);
    bytes += Number(r.headers.get("content-length") ?? 0); // on the wire: gzip when the client asks for it
    fetched++;
    return r;
  };
  const t0 = performance.now();
  const client = replicateLDES(intoConfig({ url: `${url}/ldes`, noShape: true, fetch: counting }));
  const reader = client.stream({ highWaterMark: 100 }).getReader();
  let members = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    members++;
  }
  return { members, bytes, ms: performance.now() - t0, pages: fetched };
}

async function main(): Promise<void> {
  const s = readSettings();
  const perPage = Number(process.env.BENCH_LDES_PAGE_MEMBERS ?? 100);
  const rows: Row[] = [];
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    settings: s,
  };
  say(`citygraph LDES bench: ${JSON.stringify(run.machine)}`);

  say("[1/3] bare Koa ceiling: GET / -> 200 ok");
  const koa = await bareKoa(s);
  rows.push(info("bare-koa", "GET / req/s", koa.okPerSec, "req/s", flags(koa)));

  const dataDir = freshDataDir();
  const { child } = await startServer({ dataDir, env: { SEED: "on", LDES_PAGE: PAGE } });
  try {
    say(`[2/3] a closed page of ${perPage} versions`);
    await writeVersions(child.url, perPage);
    await new Promise((r) => setTimeout(r, 11_000)); // the page closes (5 s page + 5 s grace)
    const [page] = await pages(child.url, TENANT);
    const path = new URL(page).pathname;
    const requests = [
      {
        method: "GET" as const,
        path,
        headers: { accept: "application/n-triples", "ngsild-tenant": TENANT, "accept-encoding": "gzip" },
      },
    ];
    const probe = await fetch(`${child.url}${path}`, { headers: requests[0].headers }); // fetch decodes gzip
    const body = await probe.text();
    const members = body.split("\n").filter((l) => l.includes("tree#member")).length;
    if (!/immutable/.test(probe.headers.get("cache-control") ?? ""))
      throw new Error("the page is not closed");
    if (s.warmupSeconds > 0)
      await runLoad({ url: child.url, connections: s.connections, durationS: s.warmupSeconds, requests });
    const load = await withCpu(child.proc.pid, () =>
      runLoad({ url: child.url, connections: s.connections, durationS: s.seconds, requests }),
    );
    run.page = { members, bytes: body.length, load };
    rows.push(
      info(
        "ldes",
        `closed page (${members} members, ${body.length} B) req/s`,
        load.okPerSec,
        "req/s",
        flags(load),
      ),
    );
    rows.push(atLeast("ldes", "closed page / bare Koa", load.okPerSec / koa.okPerSec, "x", 0.3));
    rows.push(info("ldes", "members served per second", load.okPerSec * members, "members/s"));

    say("[3/3] ldes-client replicates the seeded city from empty");
    await new Promise((r) => setTimeout(r, 1000));
    const rep = await replicate(child.url);
    run.replication = rep;
    rows.push(
      info(
        "ldes",
        "replication of the seeded city",
        rep.ms,
        "ms",
        `${rep.members} members, ${rep.pages} requests`,
      ),
    );
    rows.push(
      info(
        "ldes",
        "replication bytes",
        rep.bytes,
        "B",
        `${Math.round(rep.bytes / rep.members)} B per member`,
      ),
    );
    rows.push(info("ldes", "replication members per second", (rep.members / rep.ms) * 1000, "members/s"));
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.rows = rows;
  run.finished = new Date().toISOString();
  const file = writeResults(run, "ldes-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
