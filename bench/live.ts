import { rmSync } from "node:fs";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { bareKoa, flags } from "./lib/ceilings";
import { rssBytes, stopChild } from "./lib/child";
import { runLoad } from "./lib/load";
import { atLeast, below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";
import { readSettings } from "./lib/settings";
import { accidentDoc, flowDocs, percentile, postJson, sleep } from "./lib/live-load";

/**
 * `npm run bench` part 5 (GraphQL and WebSocket push), the service as a child process with the HCMC
 * seed (701 cameras, 22 zones) and a few rounds of flow observations:
 * - GraphQL `cameras(limit: 50)` with nested `statistics` over HTTP POST, throughput against the
 *   bare-Koa ceiling of the same run (target >= 0.1x);
 * - BENCH_WS_CLIENTS (default 10,000) `/ws` clients on loopback subscribed to accidents; one accident
 *   written (BENCH_LIVE_ROUNDS times, default 3): time from the write to each client's receipt, p99 and
 *   the slowest (target: all delivered within 500 ms), and the service's RSS per idle socket;
 * - BENCH_GQL_SUBSCRIBERS (default 1,000) graphql-ws subscribers of accidentAlerts, likewise.
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const num = (name: string, def: number) => Number(process.env[name] ?? def);

const CAMERAS_QUERY = `{ cameras(limit: 50) { totalCount edges { node { id name status lastUpdate location { lat lon }
  statistics { uptime24h detectionsToday avgVehicleCount } } } } }`;

async function main(): Promise<void> {
  const s = readSettings();
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
    const gql = await runLoad({ url: child.url, connections: s.connections, durationS: s.seconds, requests });
    run.graphqlCameras = gql;
    rows.push(info("graphql", "cameras(limit:50)+statistics req/s", gql.okPerSec, "req/s", flags(gql)));
    rows.push(atLeast("graphql", "cameras / bare Koa", gql.okPerSec / koa.okPerSec, "x", 0.1));

    say(`[3/4] ${num("BENCH_WS_CLIENTS", 10_000)} WebSocket clients subscribed to accidents`);
    const ws = await wsScenario(
      child.url,
      child.proc.pid,
      num("BENCH_WS_CLIENTS", 10_000),
      num("BENCH_LIVE_ROUNDS", 3),
    );
    run.websocket = ws;
    rows.push(
      below(
        "ws",
        `${ws.clients} sockets: p99 delivery`,
        ws.p99Ms,
        "ms",
        500,
        `slowest ${ws.maxMs.toFixed(0)} ms over ${ws.rounds} accidents; ${ws.received}/${ws.expected} received`,
      ),
    );
    rows.push(
      info(
        "ws",
        "RSS per idle socket",
        ws.rssPerSocketBytes / 1024,
        "KiB",
        `service RSS ${(ws.rssBefore / 1e6).toFixed(0)} -> ${(ws.rssAfter / 1e6).toFixed(0)} MB`,
      ),
    );

    say(`[4/4] ${num("BENCH_GQL_SUBSCRIBERS", 1000)} GraphQL subscribers of accidentAlerts`);
    const g = await graphqlScenario(
      child.url,
      child.proc.pid,
      num("BENCH_GQL_SUBSCRIBERS", 1000),
      num("BENCH_LIVE_ROUNDS", 3),
    );
    run.graphqlSubscriptions = g;
    rows.push(
      below(
        "graphql-ws",
        `${g.clients} subscribers: p99 delivery`,
        g.p99Ms,
        "ms",
        500,
        `slowest ${g.maxMs.toFixed(0)} ms over ${g.rounds} accidents; ${g.received}/${g.expected} received`,
      ),
    );
    rows.push(
      info(
        "graphql-ws",
        "RSS per idle subscriber",
        g.rssPerSocketBytes / 1024,
        "KiB",
        `service RSS ${(g.rssBefore / 1e6).toFixed(0)} -> ${(g.rssAfter / 1e6).toFixed(0)} MB`,
      ),
    );
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.rows = rows;
  run.finished = new Date().toISOString();
  const file = writeResults(run, "live-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

interface PushResult {
  clients: number;
  rounds: number;
  expected: number;
  received: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  rssBefore: number;
  rssAfter: number;
  rssPerSocketBytes: number;
}

function summary(
  clients: number,
  rounds: number,
  arrivals: number[][],
  starts: number[],
  rssBefore: number,
  rssAfter: number,
): PushResult {
  const all = arrivals.flatMap((a, r) => a.map((t) => t - starts[r])).sort((a, b) => a - b);
  return {
    clients,
    rounds,
    expected: clients * rounds,
    received: all.length,
    p50Ms: percentile(all, 0.5),
    p99Ms: all.length < clients * rounds ? Infinity : percentile(all, 0.99),
    maxMs: all.length ? all[all.length - 1] : NaN,
    rssBefore,
    rssAfter,
    rssPerSocketBytes: (rssAfter - rssBefore) / clients,
  };
}

async function wsScenario(
  url: string,
  pid: number | undefined,
  clients: number,
  rounds: number,
): Promise<PushResult> {
  await sleep(2000);
  const rssBefore = rssBytes(pid) ?? 0;
  const arrivals: number[][] = [];
  let round = -1;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < clients; i += 500) {
    await Promise.all(
      Array.from(
        { length: Math.min(500, clients - i) },
        () =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws`);
            sockets.push(ws);
            ws.on("error", reject);
            ws.on("open", () => ws.send(JSON.stringify({ type: "subscribe", channels: ["accidents"] })));
            ws.on("message", (d) => {
              const m = JSON.parse(d.toString()) as { type: string };
              if (m.type === "subscribed") resolve();
              else if (m.type === "alert" && round >= 0) arrivals[round].push(performance.now());
            });
          }),
      ),
    );
  }
  await sleep(3000);
  const rssAfter = rssBytes(pid) ?? 0;
  const starts = await measureRounds(url, rounds, (r) => (round = r), arrivals, "ws-bench");
  for (const ws of sockets) ws.terminate();
  await sleep(1000);
  return summary(clients, rounds, arrivals, starts, rssBefore, rssAfter);
}

/** Writes one accident per round; the listeners push receipt times into arrivals[current round]. */
async function measureRounds(
  url: string,
  rounds: number,
  setRound: (r: number) => void,
  arrivals: number[][],
  tag: string,
): Promise<number[]> {
  const starts: number[] = [];
  for (let r = 0; r < rounds; r++) {
    arrivals[r] = [];
    setRound(r);
    starts[r] = performance.now();
    await postJson(
      url,
      "/ngsi-ld/v1/entityOperations/upsert",
      [accidentDoc(`${tag}-${r}-${Date.now()}`)],
      "application/ld+json",
    );
    await sleep(1500);
  }
  return starts;
}

async function graphqlScenario(
  url: string,
  pid: number | undefined,
  clients: number,
  rounds: number,
): Promise<PushResult> {
  await sleep(2000);
  const rssBefore = rssBytes(pid) ?? 0;
  const arrivals: number[][] = [];
  let round = -1;
  const all: Client[] = [];
  for (let i = 0; i < clients; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, clients - i) }, () => {
        const c = createClient({
          url: `${url.replace(/^http/, "ws")}/graphql`,
          webSocketImpl: WebSocket,
          retryAttempts: 0,
          lazy: false,
        });
        all.push(c);
        return new Promise<void>((resolve) => {
          c.on("connected", () => resolve());
          c.subscribe(
            { query: "subscription { accidentAlerts { id severity location { lat lon } } }" },
            {
              next: () => void (round >= 0 && arrivals[round].push(performance.now())),
              error: () => undefined,
              complete: () => undefined,
            },
          );
        });
      }),
    );
  }
  await sleep(3000);
  const rssAfter = rssBytes(pid) ?? 0;
  const starts = await measureRounds(url, rounds, (r) => (round = r), arrivals, "gql-bench");
  await Promise.all(all.map((c) => c.dispose()));
  return summary(clients, rounds, arrivals, starts, rssBefore, rssAfter);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
