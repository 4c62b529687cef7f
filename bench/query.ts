import { stopChild } from "./lib/child";
import { flags, withCpu } from "./lib/ceilings";
import { constantRate, type ConstantRateResult } from "./lib/constant-rate";
import type { CpuUse } from "./lib/cpu-share";
import { QUIET_WINDOW_MS, settle } from "./lib/settle";
import { batchUpsert, getLoad, NGSI } from "./lib/http-scenarios";
import { runLoad, type LoadResult } from "./lib/load";
import { makeQueryEntities } from "./lib/query-entities";
import { atLeast, below, info, type Row } from "./lib/report";
import { freshDataDir, startServer } from "./lib/server";
import type { Settings } from "./lib/settings";
import { rmSync } from "node:fs";

/**
 * The entity-query scenarios on a store of `s.entities` query entities
 * (bench/lib/query-entities.ts): type + q with limit 20, count=true on a type holding half the store,
 * and `near;maxDistance==500` around random points of the HCMC box. Returns the table rows and the
 * raw figures for the JSON.
 */

const say = (x: string): void => void process.stdout.write(`${x}\n`);

/** The rate at which type + q is to be answered with p99 < 20 ms (docs/performance.md). */
const TARGET_RATE = 1500;

/** Non-2xx answers, errors and CPU shares of a constant-rate load, for the table's note. */
function rateNote(r: ConstantRateResult & { cpu: CpuUse }): string {
  const bad = Object.entries(r.statusCodes).filter(([c]) => !c.startsWith("2"));
  const flag =
    bad.length || r.errors ? `FLAG: ${bad.map(([c, n]) => `${n}×${c}`).join(" ")} ${r.errors} errors; ` : "";
  return `${flag}cores: server ${r.cpu.serviceCores}, load gen ${r.cpu.benchCores}, other ${r.cpu.foreignCores}`;
}

/** The type + q query of docs/performance.md. */
export const TYPE_Q_PATH = `${NGSI}/entities?type=Vehicle&q=${encodeURIComponent('speed>50;status=="active"')}&limit=20`;
/** count=true on a type with half the store. */
export const COUNT_PATH = `${NGSI}/entities?type=Vehicle&count=true&limit=0`;

function nearPath(): string {
  const lon = (106.36 + Math.random() * 0.67).toFixed(5);
  const lat = (10.35 + Math.random() * 0.81).toFixed(5);
  return `${NGSI}/entities?type=Vehicle&georel=${encodeURIComponent("near;maxDistance==500")}&geometry=Point&coordinates=${encodeURIComponent(`[${lon},${lat}]`)}`;
}

/**
 * The near scenario twice: the first `nearWarmupSeconds` right after the other scenarios (the entities
 * asked for are mostly in no cache yet: "cold"), then `seconds` of the same load (steady state: every
 * Vehicle has been asked for a few times; 50,000 × ~1 KB of rendered texts fit in the default
 * QUERY_CACHE_BYTES). The points are uniform over the box, like the entities.
 */
async function nearLoad(
  url: string,
  s: Settings,
  pid: number | undefined,
): Promise<{ cold: LoadResult & { cpu: CpuUse }; warm: LoadResult & { cpu: CpuUse } }> {
  const requests = [
    {
      method: "GET" as const,
      path: nearPath(),
      setupRequest: (req: object) => ({ ...req, path: nearPath() }),
    },
  ];
  const cold = await withCpu(pid, () =>
    runLoad({ url, connections: s.connections, durationS: s.nearWarmupSeconds, requests }),
  );
  const warm = await withCpu(pid, () =>
    runLoad({ url, connections: s.connections, durationS: s.seconds, requests }),
  );
  return { cold, warm };
}

/** Runs the query scenarios on a fresh store; the service is started and stopped here. */
export async function benchQueries(s: Settings): Promise<{ rows: Row[]; run: Record<string, unknown> }> {
  const dataDir = freshDataDir();
  const srv = await startServer({ dataDir });
  const pid = srv.child.proc.pid;
  const run: Record<string, unknown> = { entities: s.entities, dataDir };
  const rows: Row[] = [];
  try {
    const batches = Math.ceil(s.entities / s.batchSize);
    say(`\n[query] fill: ${batches} batches of ${s.batchSize} query entities (Vehicle / TrafficCamera)`);
    const fill = await batchUpsert(srv.child.url, s, 0, batches, makeQueryEntities);
    run.fill = fill;
    const settled = await settle(pid, 0.1, 900);
    run.settle = settled;
    say(
      `[query] service idle after the fill: waited ${settled.waitedS} s (last ${QUIET_WINDOW_MS / 1000} s: ${settled.lastCores} cores)`,
    );

    const check = await fetch(srv.child.url + TYPE_Q_PATH.replace("limit=20", "limit=0&count=true"));
    const matching = Number(check.headers.get("ngsild-results-count"));
    say(`[query] GET ${decodeURIComponent(TYPE_Q_PATH)} (${matching} matches in the store)`);
    const typeQ = await withCpu(pid, () => getLoad(srv.child.url, TYPE_Q_PATH, s));
    run.typeQ = { ...typeQ, matching };
    say(
      `  ${Math.round(typeQ.okPerSec)} req/s, p50 ${typeQ.latencyMs.p50} ms, p99 ${typeQ.latencyMs.p99} ms`,
    );

    say(
      `[query] the same at a constant offered ${TARGET_RATE} req/s (open loop, latency from each request's due time)`,
    );
    const rateLoad = (durationS: number) =>
      constantRate({ url: srv.child.url, path: TYPE_Q_PATH, rate: TARGET_RATE, durationS, connections: 64 });
    if (s.warmupSeconds > 0) await rateLoad(s.warmupSeconds);
    const paced = await withCpu(pid, () => rateLoad(s.seconds));
    run.typeQAt1500 = paced;
    say(
      `  ${Math.round(paced.okPerSec)} req/s, p50 ${paced.latencyMs.p50} ms, p99 ${paced.latencyMs.p99} ms, max ${paced.latencyMs.max} ms`,
    );

    say(`[query] GET ${COUNT_PATH}, one connection (latency of one request)`);
    const counted = await fetch(srv.child.url + COUNT_PATH);
    const members = Number(counted.headers.get("ngsild-results-count"));
    const count = await withCpu(pid, () => getLoad(srv.child.url, COUNT_PATH, { ...s, connections: 1 }));
    run.count = { ...count, members };
    say(`  ${members} members: p50 ${count.latencyMs.p50} ms, p99 ${count.latencyMs.p99} ms`);

    say(
      `[query] GET type=Vehicle&georel=near;maxDistance==500 around random points of the HCMC box: ${s.nearWarmupSeconds} s cold, then ${s.seconds} s`,
    );
    const { cold: nearCold, warm: near } = await nearLoad(srv.child.url, s, pid);
    run.nearCold = nearCold;
    run.near = near;
    say(
      `  cold ${Math.round(nearCold.okPerSec)} req/s (p99 ${nearCold.latencyMs.p99} ms); then ${Math.round(near.okPerSec)} req/s, p50 ${near.latencyMs.p50} ms, p99 ${near.latencyMs.p99} ms`,
    );

    const n = `${s.entities / 1000}k`;
    rows.push(atLeast(`GET type+q (${n})`, "req/s", typeQ.okPerSec, "req/s", 1500, flags(typeQ)));
    rows.push(
      info(
        `GET type+q (${n})`,
        "latency p99, saturated",
        typeQ.latencyMs.p99,
        "ms",
        `p50 ${typeQ.latencyMs.p50}`,
      ),
    );
    rows.push(
      below(
        `GET type+q (${n})`,
        "latency p99 at 1,500 req/s",
        paced.latencyMs.p99,
        "ms",
        20,
        `${Math.round(paced.okPerSec)} req/s done, p50 ${paced.latencyMs.p50}, p99.9 ${paced.latencyMs.p999}, max ${paced.latencyMs.max}; ${rateNote(paced)}`,
      ),
    );
    rows.push(
      below(
        `count=true (${members} members)`,
        "latency p99, 1 conn",
        count.latencyMs.p99,
        "ms",
        10,
        flags(count),
      ),
    );
    rows.push(
      info(
        `GET near 500 m (${n})`,
        `first ${s.nearWarmupSeconds} s (cold caches)`,
        nearCold.okPerSec,
        "req/s",
        `p99 ${nearCold.latencyMs.p99} ms; ${flags(nearCold) ?? ""}`,
      ),
    );
    rows.push(atLeast(`GET near 500 m (${n})`, "req/s", near.okPerSec, "req/s", 2000, flags(near)));
    rows.push(
      info(`GET near 500 m (${n})`, "latency p99", near.latencyMs.p99, "ms", `p50 ${near.latencyMs.p50}`),
    );
  } finally {
    await stopChild(srv.child, 120000);
    if (process.env.BENCH_KEEP_DATA !== "1") rmSync(dataDir, { recursive: true, force: true });
  }
  return { rows, run };
}
