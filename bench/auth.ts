import { rmSync } from "node:fs";
import { bareKoa, flags, withCpu } from "./lib/ceilings";
import type { CpuUse } from "./lib/cpu-share";
import { stopChild } from "./lib/child";
import { entityId } from "./lib/entities";
import { fillEntities, getByIdLoad } from "./lib/get-by-id";
import type { LoadResult } from "./lib/load";
import { atLeast, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { pinningOn, pinProcess } from "./lib/pin";
import { freshDataDir, startServer, type StartedServer } from "./lib/server";
import { readSettings } from "./lib/settings";
import { settle } from "./lib/settle";

/**
 * `npm run bench:auth` (part of `npm run bench`): what identity costs the fastest read. Two services run
 * side by side on stores filled alike: one with AUTH=on (a bearer token, rate limiting on: the user's tier
 * counts every request, with a limit too high to be reached), one with AUTH=off. GET
 * /ngsi-ld/v1/entities/{id} loads alternate between them (off-on, on-off, ... BENCH_AUTH_ROUNDS rounds, default 4) and the ratio of their mean
 * throughputs is the figure (target >= 0.9); the bare-Koa ceiling is measured in the same run. The load
 * generator and the services run on separate CPUs (bench/lib/pin.ts; `BENCH_PIN=off` to not pin). Login is
 * slow on purpose (scrypt at OWASP strength): its rate is reported for one client and for 4 at once.
 *
 * BENCH_AUTH_ENTITIES (default 1000) entities per store; BENCH_SECONDS, BENCH_WARMUP_SECONDS and
 * BENCH_CONNECTIONS as in bench/lib/settings.ts; BENCH_AUTH_LOGINS (default 8) logins per login figure.
 */

/** Rounds of the GET comparison (each: one AUTH=off and one AUTH=on load). */
const ROUNDS = Number(process.env.BENCH_AUTH_ROUNDS ?? 4);
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const PASSWORD = "bench-admin-password";

async function call(
  base: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(base + path, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return { res, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** `n` logins, `parallel` at a time: logins per second and ms per login. */
async function loginRate(
  base: string,
  n: number,
  parallel: number,
): Promise<{ perSec: number; msEach: number }> {
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next++ < n) await call(base, "POST", "/v1/auth/login", { username: "bench", password: PASSWORD });
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const s = (performance.now() - t0) / 1000;
  return { perSec: n / s, msEach: (s * 1000 * parallel) / n };
}

async function main(): Promise<void> {
  const s = readSettings();
  const count = Number(process.env.BENCH_AUTH_ENTITIES ?? 1000);
  const logins = Number(process.env.BENCH_AUTH_LOGINS ?? 8);
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    settings: s,
    count,
  };
  const rows: Row[] = [];
  say(`citygraph auth bench: ${JSON.stringify(run.machine)}`);

  say("[1/4] bare Koa ceiling: GET / -> 200 ok");
  const koa = await bareKoa(s);
  rows.push(info("auth", "bare Koa GET / req/s", koa.okPerSec, "req/s", flags(koa)));

  const dirs = [freshDataDir(), freshDataDir()];
  let on: StartedServer | undefined;
  let off: StartedServer | undefined;
  try {
    say("[2/4] two services (AUTH=on, AUTH=off), stores filled alike");
    on = await startServer({
      dataDir: dirs[0],
      env: { AUTH: "on", ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_PREMIUM: "1000000000" },
    });
    off = await startServer({ dataDir: dirs[1], env: { AUTH: "off" } });
    const admin = (
      await call(on.child.url, "POST", "/v1/auth/login", { username: "admin", password: PASSWORD })
    ).json;
    const adminAuth = { Authorization: `Bearer ${String(admin.access_token)}` };
    await call(
      on.child.url,
      "POST",
      "/v1/admin/users",
      { username: "bench", password: PASSWORD, role: "viewer", tier: "premium" },
      adminAuth,
    );
    await fillEntities(on.child.url, count, adminAuth);
    await fillEntities(off.child.url, count, {});
    // the work a fill leaves behind (the history's sealing, RocksDB's flushes) is not the gate's cost
    for (const srv of [on, off]) await settle(srv.child.proc.pid, 0.05, 300);

    if (logins > 0) {
      say(`[3/4] login rate (${logins} logins, 1 and 4 clients)`);
      const one = await loginRate(on.child.url, logins, 1);
      const four = await loginRate(on.child.url, logins, 4);
      run.login = { one, four };
      rows.push(
        info("auth", "login, 1 client", one.perSec, "logins/s", `${one.msEach.toFixed(0)} ms per login`),
      );
      rows.push(
        info(
          "auth",
          "login, 4 clients",
          four.perSec,
          "logins/s",
          `${four.msEach.toFixed(0)} ms per login seen by a client`,
        ),
      );
    }

    const token = (
      await call(on.child.url, "POST", "/v1/auth/login", { username: "bench", password: PASSWORD })
    ).json.access_token;
    const bearer = { Authorization: `Bearer ${String(token)}` };
    const probe = await call(on.child.url, "GET", `/ngsi-ld/v1/entities/${entityId(0)}`, undefined, bearer);
    const limit = probe.res.headers.get("x-ratelimit-limit");
    if (limit !== "1000000000") throw new Error(`rate limiting is not on: X-RateLimit-Limit ${limit}`);

    // the load generator on CPU 0, both services on CPU 1 (one is idle while the other is measured)
    const pinned = pinningOn();
    if (pinned) {
      pinProcess(process.pid, 0);
      for (const srv of [on, off]) pinProcess(srv.child.proc.pid as number, 1);
    }
    run.pinned = pinned;
    say(
      `[4/4] GET /entities/{id}: off, on, off, on (${s.seconds} s each, ${s.connections} connections` +
        `${pinned ? ", load generator on CPU 0, services on CPU 1" : ""})`,
    );
    type Measured = LoadResult & { cpu: CpuUse };
    const offRuns: Measured[] = [];
    const onRuns: Measured[] = [];
    // alternating order (off-on, on-off, ...) so that neither side always runs right after the other
    const offLoad = (warm: boolean) =>
      withCpu(off!.child.proc.pid, () => getByIdLoad(off!.child.url, s, count, {}, warm));
    const onLoad = (warm: boolean) =>
      withCpu(on!.child.proc.pid, () => getByIdLoad(on!.child.url, s, count, bearer, warm));
    for (let round = 0; round < ROUNDS; round++) {
      const pair = round % 2 === 0 ? ["off", "on"] : ["on", "off"];
      for (const side of pair) {
        const r = side === "off" ? await offLoad(round === 0) : await onLoad(round === 0);
        (side === "off" ? offRuns : onRuns).push(r);
        say(`  AUTH=${side.padEnd(3)} ${Math.round(r.okPerSec)} req/s`);
      }
    }
    const mean = (xs: Measured[]) => xs.reduce((a, r) => a + r.okPerSec, 0) / xs.length;
    // main-thread CPU per request: what the throughput would be on an idle machine, robust to other load
    const usPerReq = (xs: Measured[]) =>
      (xs.reduce((a, r) => a + r.cpu.mainThreadCores, 0) / xs.reduce((a, r) => a + r.okPerSec, 0)) * 1e6;
    const ratio = mean(onRuns) / mean(offRuns);
    const cpuRatio = usPerReq(offRuns) / usPerReq(onRuns);
    run.get = {
      off: offRuns,
      on: onRuns,
      ratio,
      cpuRatio,
      usPerReq: { off: usPerReq(offRuns), on: usPerReq(onRuns) },
    };
    rows.push(info("auth", "GET by id, AUTH=off", mean(offRuns), "req/s", flags(offRuns[1])));
    rows.push(info("auth", "GET by id, bearer + rate limit", mean(onRuns), "req/s", flags(onRuns[1])));
    rows.push(
      atLeast("auth", "GET by id, on / off", ratio, "", 0.9, `bare Koa ${Math.round(koa.okPerSec)} req/s`),
    );
    rows.push(
      info(
        "auth",
        "GET by id, main-thread µs per request",
        usPerReq(onRuns),
        "µs",
        `AUTH=off ${usPerReq(offRuns).toFixed(0)} µs: on / off by CPU ${cpuRatio.toFixed(3)}`,
      ),
    );
  } finally {
    if (on) await stopChild(on.child);
    if (off) await stopChild(off.child);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  run.rows = rows;
  const file = writeResults(run, "auth-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
