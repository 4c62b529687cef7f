import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { rssBytes } from "./child";
import { readCpu } from "./cpu-share";
import { accidentDoc, percentile, postJson, sleep } from "./live-load";

/** What one push scenario of bench/live.ts measured. */
export interface PushResult {
  kind: "ws" | "graphql";
  clients: number;
  clientProcesses: number;
  rounds: number;
  expected: number;
  received: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  rssBefore: number;
  rssAfter: number;
  rssPerSocketBytes: number;
  /** CPU time of the service's main thread per accident (its write and its delivery to every client). */
  serviceCpuMsPerAccident: number;
}

const now = (): number => performance.timeOrigin + performance.now();

/**
 * `clients` push clients of the service at `url` (pid `pid`), subscribed to accidents and spread over
 * `processes` client processes (bench/lib/push-client-process.ts), so that the bench's own clock and
 * writes are not held up by the clients' work; then `rounds` accidents written one at a time: the time
 * from each write to each client's receipt, the service's main-thread CPU per accident (steadier than
 * the times on a loaded machine) and the service's RSS per idle socket.
 */
export async function pushScenario(o: {
  url: string;
  pid: number | undefined;
  kind: "ws" | "graphql";
  clients: number;
  rounds: number;
  processes: number;
}): Promise<PushResult> {
  await sleep(2000);
  const rssBefore = rssBytes(o.pid) ?? 0;
  const procs = Array.from({ length: o.processes }, () =>
    fork(path.join(__dirname, "push-client-process.js"), { stdio: ["ignore", "inherit", "inherit", "ipc"] }),
  );
  try {
    await Promise.all(
      procs.map((p, i) => {
        const count = Math.floor(o.clients / o.processes) + (i < o.clients % o.processes ? 1 : 0);
        return ask(p, { cmd: "open", url: o.url, kind: o.kind, count }, "opened");
      }),
    );
    await sleep(3000);
    const rssAfter = rssBytes(o.pid) ?? 0;
    const delays: number[] = [];
    const cpuBefore = readCpu([o.pid]).mainThread;
    for (let r = 0; r < o.rounds; r++) {
      const start = now();
      await postJson(
        o.url,
        "/ngsi-ld/v1/entityOperations/upsert",
        [accidentDoc(`${o.kind}-bench-${r}-${Date.now()}`)],
        "application/ld+json",
      );
      // the next accident waits until every client has this one (or 60 s), so no receipt is counted
      // against the wrong write
      let got = 0;
      for (const deadline = start + 60_000; got < o.clients && now() < deadline;) {
        await sleep(250);
        for (const p of procs) {
          const { arrivals } = (await ask(p, { cmd: "collect" }, "arrivals")) as { arrivals: number[] };
          delays.push(...arrivals.map((t) => t - start));
          got += arrivals.length;
        }
      }
      await sleep(500);
    }
    // ticks of 10 ms, over the writes and their deliveries
    const serviceCpuMsPerAccident = ((readCpu([o.pid]).mainThread - cpuBefore) * 10) / o.rounds;
    delays.sort((a, b) => a - b);
    const expected = o.clients * o.rounds;
    return {
      kind: o.kind,
      clients: o.clients,
      clientProcesses: o.processes,
      rounds: o.rounds,
      expected,
      received: delays.length,
      p50Ms: percentile(delays, 0.5),
      p99Ms: delays.length < expected ? Infinity : percentile(delays, 0.99),
      maxMs: delays.length ? delays[delays.length - 1] : NaN,
      rssBefore,
      rssAfter,
      rssPerSocketBytes: (rssAfter - rssBefore) / o.clients,
      serviceCpuMsPerAccident,
    };
  } finally {
    for (const p of procs) p.send({ cmd: "close" });
    await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(0) : p.once("exit", r)))));
  }
}

/** Sends `msg` to a client process and resolves with its answer carrying `field`. */
function ask(p: ChildProcess, msg: object, field: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Record<string, unknown>) => {
      if (m.error !== undefined) reject(new Error(String(m.error)));
      else if (field in m) resolve(m);
      else return;
      p.off("message", onMessage);
    };
    p.on("message", onMessage);
    p.send(msg);
  });
}
