import { rmSync } from "node:fs";
import { bareKoa, flags, withCpu } from "./lib/ceilings";
import { stopChild } from "./lib/child";
import { runLoad } from "./lib/load";
import { atLeast, below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";
import { readSettings } from "./lib/settings";
import { flowDocs, postJson } from "./lib/live-load";
import { pushScenario } from "./lib/push-scenario";

/**
 * `npm run bench` part 5 (GraphQL and WebSocket push), the service as a child process with the HCMC
 * seed (701 cameras, 22 zones) and a few rounds of flow observations:
 * - GraphQL `cameras(limit: 50)` with nested `statistics` over HTTP POST, throughput against the
 *   bare-Koa ceiling of the same run (target >= 0.1x);
 * - BENCH_WS_CLIENTS (default 10,000) `/ws` clients on loopback subscribed to accidents, in
 *   BENCH_LIVE_CLIENT_PROCS (default 2) processes of their own; one accident written (BENCH_LIVE_ROUNDS
 *   times, default 3): time from the write to each client's receipt, p99 and the slowest (target: p99
 *   under 500 ms), and the service's RSS per idle socket;
 * - BENCH_GQL_SUBSCRIBERS (default 1,000) graphql-ws subscribers of accidentAlerts, likewise.
 *
 * BENCH_LIVE_ONLY=graphql runs the ceiling and the GraphQL query alone (no push scenarios).
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const num = (name: string, def: number) => Number(process.env[name] ?? def);

/** BENCH_LIVE_ONLY: `graphql` for the ceiling and the GraphQL query alone; unset for every scenario. */
function liveOnly(): "graphql" | undefined {
  const v = process.env.BENCH_LIVE_ONLY;
  if (v === undefined || v === "") return undefined;
  if (v !== "graphql") throw new Error(`BENCH_LIVE_ONLY must be graphql, got "${v}"`);
  return v;
}

const CAMERAS_QUERY = `{ cameras(limit: 50) { totalCount edges { node { id name status lastUpdate location { lat lon }
  statistics { uptime24h detectionsToday avgVehicleCount } } } } }`;

async function main(): Promise<void> {
  const s = readSettings();
  const only = liveOnly();
  const rows: Row[] = [];
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    settings: s,
  };
  say(`citygraph live bench: ${JSON.stringify(run.machine)}`);

  say("\n[1/4] bare Koa ceiling: GET / -> 200 ok");
  const koa = await bareKoa(s);
  rows.push(info("bare-koa", "GET / req/s", koa.okPerSec, "req/s", flags(koa)));

  const dataDir = freshDataDir();
  const { child } = await startServer({ dataDir, env: { SEED: "on", WS_QUEUE_MESSAGES: "256" } });
  try {
    say("[2/4] GraphQL cameras(limit: 50) with statistics");
    for (let round = 0; round < 6; round++)
      await postJson(
        child.url,
        "/ngsi-ld/v1/entityOperations/upsert",
        await flowDocs(child.url, round),
        "application/ld+json",
      );
    const requests = [
      {
        method: "POST" as const,
        path: "/graphql",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: CAMERAS_QUERY }),
      },
    ];
    if (s.warmupSeconds > 0)
      await runLoad({ url: child.url, connections: s.connections, durationS: s.warmupSeconds, requests });
    const gql = await withCpu(child.proc.pid, () =>
      runLoad({ url: child.url, connections: s.connections, durationS: s.seconds, requests }),
    );
    run.graphqlCameras = gql;
    rows.push(info("graphql", "cameras(limit:50)+statistics req/s", gql.okPerSec, "req/s", flags(gql)));
    rows.push(atLeast("graphql", "cameras / bare Koa", gql.okPerSec / koa.okPerSec, "x", 0.1));
    if (only !== "graphql") await pushRows(child, rows, run);
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.rows = rows;
  run.finished = new Date().toISOString();
  const file = writeResults(run, "live-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

/** The `/ws` and graphql-ws push scenarios against the running service. */
async function pushRows(
  child: { url: string; proc: { pid?: number } },
  rows: Row[],
  run: Record<string, unknown>,
): Promise<void> {
  say(`[3/4] ${num("BENCH_WS_CLIENTS", 10_000)} WebSocket clients subscribed to accidents`);
  const push = {
    url: child.url,
    pid: child.proc.pid,
    rounds: num("BENCH_LIVE_ROUNDS", 3),
    processes: num("BENCH_LIVE_CLIENT_PROCS", 2),
  };
  const ws = await pushScenario({ ...push, kind: "ws", clients: num("BENCH_WS_CLIENTS", 10_000) });
  run.websocket = ws;
  rows.push(...deliveryRows("ws", "sockets", "socket", ws));

  say(`[4/4] ${num("BENCH_GQL_SUBSCRIBERS", 1000)} GraphQL subscribers of accidentAlerts`);
  const g = await pushScenario({ ...push, kind: "graphql", clients: num("BENCH_GQL_SUBSCRIBERS", 1000) });
  run.graphqlSubscriptions = g;
  rows.push(...deliveryRows("graphql-ws", "subscribers", "subscriber", g));
}

/** The rows of one push scenario: p99 delivery against 500 ms, service CPU per accident, RSS per idle client. */
function deliveryRows(
  scenario: string,
  clientsWord: string,
  clientWord: string,
  r: Awaited<ReturnType<typeof pushScenario>>,
): Row[] {
  return [
    below(
      scenario,
      `${r.clients} ${clientsWord}: p99 delivery`,
      r.p99Ms,
      "ms",
      500,
      `slowest ${r.maxMs.toFixed(0)} ms over ${r.rounds} accidents; ${r.received}/${r.expected} received; clients in ${r.clientProcesses} processes`,
    ),
    info(
      scenario,
      "service CPU per accident",
      r.serviceCpuMsPerAccident,
      "ms",
      `main thread: the write and its delivery to ${r.clients} clients`,
    ),
    info(
      scenario,
      `RSS per idle ${clientWord}`,
      r.rssPerSocketBytes / 1024,
      "KiB",
      `service RSS ${(r.rssBefore / 1e6).toFixed(0)} -> ${(r.rssAfter / 1e6).toFixed(0)} MB`,
    ),
  ];
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
