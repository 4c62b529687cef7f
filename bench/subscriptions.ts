import http from "node:http";
import { rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { stopChild } from "./lib/child";
import { atLeast, below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";
import { Webhook } from "./lib/webhook";

/**
 * `npm run bench` part 4: notification delivery to a local webhook, once with the
 * in-process queue and once with REDIS_URL (BullMQ on Redis), the service as a child process.
 *
 * - **latency**: 100 subscriptions, each on one of 100 Cameras; PATCHes at an offered 1,000 writes/s
 *   (open loop, BENCH_SUB_SECONDS, default 10 s) spread over the Cameras, so each write matches one
 *   subscription. Per write: time from its acknowledgement (204 read by the writer) to the first receipt
 *   of its notification at the webhook; p50/p99/max (a notification that arrives before the writer has
 *   read the 204 counts as 0 ms). Target p99 < 50 ms.
 * - **throughput**: 100 more subscriptions, all on type Junction; BENCH_SUB_FANOUT_WRITES (default 300)
 *   PATCHes of one Junction (4 writers), each matching all 100: notifications received per second from
 *   the first write to the last notification. Target >= 5,000/s.
 *
 * REDIS_URL (default redis://127.0.0.1:6379) names the Redis; each run uses a queue name of its own.
 * BENCH_SUB_MODES (default `in-process,redis`) picks the queues; BENCH_SUB_CPU_PROF=<dir> has the service
 * write a V8 CPU profile there.
 */

const SUBS = 100;
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function num(name: string, def: number): number {
  const v = Number(process.env[name] ?? def);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
}

/** One request over the keep-alive agent; resolves with the status once the answer is read. */
function request(base: string, method: string, path: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + path,
      {
        method,
        agent,
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

async function must(p: Promise<number>, want: number, what: string): Promise<void> {
  const st = await p;
  if (st !== want) throw new Error(`${what} answered ${st}, expected ${want}`);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const patch = (base: string, id: string, value: number) =>
  request(base, "PATCH", `/ngsi-ld/v1/entities/${id}/attrs`, { speed: { type: "Property", value } });

async function setUp(base: string, hook: string): Promise<void> {
  for (let k = 0; k < SUBS; k++) {
    const id = `urn:ngsi-ld:Camera:b${k}`;
    await must(
      request(base, "POST", "/ngsi-ld/v1/entities", {
        id,
        type: "Camera",
        speed: { type: "Property", value: -1 },
      }),
      201,
      "entity create",
    );
    await must(
      request(base, "POST", "/ngsi-ld/v1/subscriptions", {
        id: `urn:ngsi-ld:Subscription:one-${k}`,
        type: "Subscription",
        entities: [{ id, type: "Camera" }],
        watchedAttributes: ["speed"],
        notification: { endpoint: { uri: hook }, format: "keyValues", attributes: ["speed"] },
      }),
      201,
      "subscription create",
    );
    await must(
      request(base, "POST", "/ngsi-ld/v1/subscriptions", {
        id: `urn:ngsi-ld:Subscription:fan-${k}`,
        type: "Subscription",
        entities: [{ type: "Junction" }],
        notification: { endpoint: { uri: hook }, format: "keyValues", attributes: ["speed"] },
      }),
      201,
      "subscription create",
    );
  }
  await must(
    request(base, "POST", "/ngsi-ld/v1/entities", {
      id: "urn:ngsi-ld:Junction:j",
      type: "Junction",
      speed: { type: "Property", value: -1 },
    }),
    201,
    "entity create",
  );
}

/** Each write's send and acknowledgement times (performance.now, ms). */
interface Timed {
  sent: Map<number, number>;
  acked: Map<number, number>;
}

/** Writes at `rate`/s for `seconds` (open loop) to the Cameras, values from `first` on. */
async function openLoop(base: string, rate: number, seconds: number, first: number): Promise<Timed> {
  const t: Timed = { sent: new Map(), acked: new Map() };
  const total = Math.round(rate * seconds);
  const t0 = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const v = first + i;
    t.sent.set(v, performance.now());
    const p = must(patch(base, `urn:ngsi-ld:Camera:b${v % SUBS}`, v), 204, "PATCH").then(() => {
      t.acked.set(v, performance.now());
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  await Promise.all(inFlight);
  return t;
}

interface ModeResult {
  mode: string;
  writes: number;
  offeredPerSec: number;
  achievedWritesPerSec: number;
  /** Write acknowledged -> notification received (0 when it came first; `early` counts those). */
  latencyMs: { p50: number; p99: number; max: number; early: number; missing: number };
  /** Write sent -> notification received: an upper bound that does not hide early arrivals. */
  sentToReceiptMs: { p50: number; p99: number; max: number };
  fanout: { writes: number; notifications: number; received: number; seconds: number; perSec: number };
  loadavg: number[];
}

async function runMode(mode: "in-process" | "redis"): Promise<ModeResult> {
  const hookRx = new Webhook("speed");
  const hook = await hookRx.start();
  const dataDir = freshDataDir();
  const queue = `citygraph-bench-${randomBytes(4).toString("hex")}`;
  const env: Record<string, string> =
    mode === "redis"
      ? { REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379", NOTIFY_QUEUE: queue }
      : {};
  const prof = process.env.BENCH_SUB_CPU_PROF; // a directory: the service writes a CPU profile there
  const nodeArgs = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : undefined;
  const server = await startServer({ dataDir, env, nodeArgs });
  const base = server.child.url;
  try {
    await setUp(base, hook);
    const seconds = num("BENCH_SUB_SECONDS", 10);
    say(`[${mode}] warm-up 2 s at 500 writes/s`);
    await openLoop(base, 500, 2, 1_000_000);
    await hookRx.until(() => hookRx.firstAt.size >= 1000 + 1, 10_000);
    say(`[${mode}] latency: 1,000 writes/s for ${seconds} s, each matching 1 of ${SUBS} subscriptions`);
    const t0 = performance.now();
    const timed = await openLoop(base, 1000, seconds, 0);
    const acked = timed.acked;
    const writeSecs = (performance.now() - t0) / 1000;
    const keyOf = (v: number) => `urn:ngsi-ld:Subscription:one-${v % SUBS} ${v}`;
    await hookRx.until(() => [...acked.keys()].every((v) => hookRx.firstAt.has(keyOf(v))), 30_000);
    const lat: number[] = [];
    let early = 0;
    let missing = 0;
    for (const [v, at] of acked) {
      const got = hookRx.firstAt.get(keyOf(v));
      if (got === undefined) missing++;
      else {
        if (got < at) early++;
        lat.push(Math.max(0, got - at));
      }
    }
    lat.sort((a, b) => a - b);
    const fromSent: number[] = [];
    for (const [v, at] of timed.sent) {
      const got = hookRx.firstAt.get(keyOf(v));
      if (got !== undefined) fromSent.push(got - at);
    }
    fromSent.sort((a, b) => a - b);

    const fanWrites = num("BENCH_SUB_FANOUT_WRITES", 300);
    say(`[${mode}] throughput: ${fanWrites} writes, each matching all ${SUBS} Junction subscriptions`);
    const before = hookRx.count;
    const f0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < fanWrites)
          await must(patch(base, "urn:ngsi-ld:Junction:j", 2_000_000 + next++), 204, "PATCH");
      }),
    );
    const expected = fanWrites * SUBS;
    await hookRx.until(() => hookRx.count - before >= expected, 120_000);
    const received = hookRx.count - before;
    const fanSecs = (hookRx.lastAt - f0) / 1000;
    return {
      mode,
      writes: acked.size,
      offeredPerSec: 1000,
      achievedWritesPerSec: acked.size / writeSecs,
      latencyMs: { p50: pct(lat, 0.5), p99: pct(lat, 0.99), max: lat[lat.length - 1], early, missing },
      sentToReceiptMs: {
        p50: pct(fromSent, 0.5),
        p99: pct(fromSent, 0.99),
        max: fromSent[fromSent.length - 1],
      },
      fanout: {
        writes: fanWrites,
        notifications: expected,
        received,
        seconds: fanSecs,
        perSec: received / fanSecs,
      },
      loadavg: machineFacts().loadavg as number[],
    };
  } finally {
    await stopChild(server.child);
    await hookRx.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (mode === "redis") await dropQueue(env.REDIS_URL, queue);
  }
}

/** Removes the keys of a bench queue. */
async function dropQueue(redisUrl: string, name: string): Promise<void> {
  const { Queue } = await import("bullmq");
  const { default: IORedis } = await import("ioredis");
  const connection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
  const q = new Queue(name, { connection });
  await q.obliterate({ force: true });
  await q.close();
  await connection.quit().catch(() => undefined);
}

function rowsOf(r: ModeResult): Row[] {
  const s = `subscriptions (${r.mode})`;
  const l = r.latencyMs;
  return [
    below(
      s,
      "ack -> webhook p99, 100 subs, 1,000 writes/s",
      l.p99,
      "ms",
      50,
      `p50 ${l.p50.toFixed(1)}, max ${l.max.toFixed(1)}, ${l.early} before the ack; ${r.writes} writes at ${r.achievedWritesPerSec.toFixed(0)}/s; ${l.missing} missing; load ${r.loadavg.join(" ")}`,
    ),
    info(
      s,
      "write sent -> webhook p99 (same run)",
      r.sentToReceiptMs.p99,
      "ms",
      `p50 ${r.sentToReceiptMs.p50.toFixed(1)}, max ${r.sentToReceiptMs.max.toFixed(1)}`,
    ),
    atLeast(
      s,
      "notifications delivered/s (fan-out 100)",
      r.fanout.perSec,
      "/s",
      5000,
      `${r.fanout.received} of ${r.fanout.notifications} in ${r.fanout.seconds.toFixed(2)} s`,
    ),
  ];
}

/** The subscription figures, both queues; rows for the table and the run for the JSON file. */
export async function benchSubscriptions(): Promise<{ rows: Row[]; run: ModeResult[] }> {
  const run: ModeResult[] = [];
  const modes = (process.env.BENCH_SUB_MODES ?? "in-process,redis").split(",");
  for (const mode of ["in-process", "redis"] as const)
    if (modes.includes(mode)) run.push(await runMode(mode));
  return { rows: run.flatMap(rowsOf), run };
}

async function main(): Promise<void> {
  const started = new Date().toISOString();
  const machine = machineFacts();
  say(`citygraph subscription bench: ${JSON.stringify(machine)}`);
  const { rows, run } = await benchSubscriptions();
  rows.push(
    info("subscriptions", "load average at end (1 min)", (machineFacts().loadavg as number[])[0], ""),
  );
  const file = writeResults(
    { started, machine, finished: new Date().toISOString(), subscriptions: run, rows },
    "subscriptions-",
  );
  say(`\n${formatTable(rows)}\n\nJSON: ${file} (and bench/results/subscriptions-latest.json)`);
  agent.destroy();
}

if (require.main === module) {
  void main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
