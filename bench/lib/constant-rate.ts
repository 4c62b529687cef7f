import http from "node:http";

/**
 * An open-loop load at a constant offered rate: request `i` is due at `i / rate` seconds after the
 * start and is sent then (on a pool of keep-alive connections), whether or not earlier answers have
 * come back. Latency is counted from the time a request was DUE to the end of its answer, so a stall
 * of the service (or of this client) shows in the figures instead of silently lowering the rate
 * ("coordinated omission"). autocannon's `overallRate` is not this: each connection sends its share
 * of a second back to back as fast as it can and then waits for the next second, so its latencies
 * are those of bursts at full speed.
 */

/** Options of {@link constantRate}. */
export interface ConstantRateOptions {
  url: string;
  path: string;
  /** Requests per second offered. */
  rate: number;
  durationS: number;
  /** Most connections open at once (requests due while all are busy wait, and that wait counts). */
  connections: number;
}

/** What a constant-rate load measured. */
export interface ConstantRateResult {
  offeredRate: number;
  durationS: number;
  sent: number;
  /** 2xx answers per second of the run (from the first due time to the last answer). */
  okPerSec: number;
  /** From due time to the end of the answer, over all answers. */
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  statusCodes: Record<string, number>;
  errors: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs the load and resolves when every request sent has been answered (or failed). */
export async function constantRate(o: ConstantRateOptions): Promise<ConstantRateResult> {
  const { hostname, port } = new URL(o.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const total = Math.max(1, Math.round(o.rate * o.durationS));
  const latency = new Float64Array(total);
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let finished = 0;
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((r) => (allDone = r));
  const t0 = performance.now();
  const due = (i: number): number => t0 + (i * 1000) / o.rate;
  const settle = (i: number, status: number | undefined): void => {
    latency[i] = performance.now() - due(i);
    if (status === undefined) errors++;
    else statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    if (++finished === total) allDone();
  };
  const send = (i: number): void => {
    const req = http.request({ agent, hostname, port, path: o.path, method: "GET" }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => settle(i, res.statusCode));
      res.on("error", () => settle(i, undefined));
    });
    req.on("error", () => settle(i, undefined));
    req.end();
  };
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && due(next) <= now) send(next++);
    await sleep(1);
  }
  await done;
  const wall = (performance.now() - t0) / 1000;
  agent.destroy();
  const sorted = Float64Array.from(latency).sort();
  const at = (q: number): number => Number(sorted[Math.min(total - 1, Math.floor(q * total))].toFixed(2));
  const ok = Object.entries(statusCodes)
    .filter(([c]) => c.startsWith("2"))
    .reduce((n, [, k]) => n + k, 0);
  return {
    offeredRate: o.rate,
    durationS: o.durationS,
    sent: total,
    okPerSec: ok / wall,
    latencyMs: {
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      p999: at(0.999),
      max: Number(sorted[total - 1].toFixed(2)),
      mean: Number((sorted.reduce((a, b) => a + b, 0) / total).toFixed(2)),
    },
    statusCodes,
    errors,
  };
}
