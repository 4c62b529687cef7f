import autocannon from "autocannon";

/**
 * The load generator: autocannon run from the bench process against a child server, over loopback,
 * pipelining 1. Throughput is computed as completed 2xx responses over the measured duration (not
 * autocannon's per-second sample mean, which a partial last second skews).
 */

/** What one load run measured. */
export interface LoadResult {
  connections: number;
  durationS: number;
  /** Responses of any status. */
  responses: number;
  /** 2xx responses per second. */
  okPerSec: number;
  /** autocannon's own mean of per-second request counts (all statuses), for reference. */
  autocannonReqPerSecMean: number;
  latencyMs: { p50: number; p99: number; max: number; mean: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Status codes seen (code -> count). */
  statusCodes: Record<string, number>;
}

/** One request template; `setupRequest` may fill in path and body per request. */
export type LoadRequest = autocannon.Request;

/** Options of {@link runLoad}. */
export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds, used when `amount` is not given. */
  durationS: number;
  /** Stop after this many requests instead of after `durationS`. */
  amount?: number;
  requests?: LoadRequest[];
  /** Called on every response (for progress). */
  onResponse?: (status: number) => void;
  /** Per-request timeout, seconds (autocannon default 10). */
  timeoutS?: number;
  /** Offered load: at most this many requests per second over all connections (open-loop pacing). */
  overallRate?: number;
}

/** Runs one autocannon load and summarises it. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const statusCodes: Record<string, number> = {};
  let settle: (err: unknown, r: autocannon.Result | undefined) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    settle = (err, r) =>
      err || r === undefined ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(r);
  });
  const instance = autocannon(
    {
      url: o.url,
      connections: o.connections,
      pipelining: 1,
      duration: o.durationS,
      amount: o.amount,
      timeout: o.timeoutS ?? 10,
      requests: o.requests,
      overallRate: o.overallRate,
    },
    (err: unknown, r: autocannon.Result | undefined) => settle(err, r),
  );
  instance.on("response", (_client: unknown, status: number) => {
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    o.onResponse?.(status);
  });
  const r = await done;
  const responses = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    connections: o.connections,
    durationS: r.duration,
    responses,
    okPerSec: r["2xx"] / r.duration,
    autocannonReqPerSecMean: r.requests.average,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, mean: r.latency.average },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}
