/**
 * The knobs of `npm run bench`, read from the environment once.
 *
 * | env | default | meaning |
 * |---|---|---|
 * | BENCH_SECONDS | 10 | duration of each timed HTTP load |
 * | BENCH_WARMUP_SECONDS | 2 | untimed load before each timed HTTP load |
 * | BENCH_ENTITIES | 100000 | entities in the store for the memory and start-up figures |
 * | BENCH_CONNECTIONS | 32 | autocannon connections of the single-request scenarios |
 * | BENCH_POST_CONNECTIONS | BENCH_CONNECTIONS | connections of the POST /entities scenario alone (its throughput at saturation needs more: docs/decisions/0001-write-path.md) |
 * | BENCH_BATCH_CONNECTIONS | 4 | connections of the batch-upsert scenario (1,000 entities each) |
 * | BENCH_BATCH_SIZE | 1000 | entities per batch upsert |
 * | BENCH_NEAR_WARMUP_SECONDS | 20 | the near scenario's cold first part, before its timed `BENCH_SECONDS` |
 * | BENCH_ONLY | (all) | `query`: only the entity-query scenarios; `broker`: only the broker scenarios |
 * | BENCH_SERVER_ARGS | (none) | Node arguments for the service under test, e.g. `--trace-gc` (bench/lib/server.ts) |
 * | BENCH_SERVER_LOG | (none) | file the service's output is appended to (bench/lib/server.ts) |
 * | BENCH_SERVER_LOG_LEVEL | warn | the service's LOG_LEVEL, unless a scenario sets its own |
 */
export interface Settings {
  seconds: number;
  warmupSeconds: number;
  entities: number;
  connections: number;
  /** Connections of the POST /entities scenario. */
  postConnections: number;
  batchConnections: number;
  batchSize: number;
  /** Seconds of near load before the timed one (reported apart as the cold figure). */
  nearWarmupSeconds: number;
  /** Which scenarios to run: undefined = all. */
  only?: "query" | "broker";
}

function num(name: string, def: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return def;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return n;
}

function only(): Settings["only"] {
  const v = process.env.BENCH_ONLY;
  if (v === undefined || v === "") return undefined;
  if (v !== "query" && v !== "broker") throw new Error(`BENCH_ONLY must be query or broker, got "${v}"`);
  return v;
}

/** Reads the settings from `process.env`; throws on a bad value. */
export function readSettings(): Settings {
  return {
    seconds: num("BENCH_SECONDS", 10, 1),
    warmupSeconds: num("BENCH_WARMUP_SECONDS", 2, 0),
    entities: Math.floor(num("BENCH_ENTITIES", 100000, 1000)),
    connections: Math.floor(num("BENCH_CONNECTIONS", 32, 1)),
    postConnections: Math.floor(num("BENCH_POST_CONNECTIONS", num("BENCH_CONNECTIONS", 32, 1), 1)),
    batchConnections: Math.floor(num("BENCH_BATCH_CONNECTIONS", 4, 1)),
    batchSize: Math.floor(num("BENCH_BATCH_SIZE", 1000, 1)),
    nearWarmupSeconds: num("BENCH_NEAR_WARMUP_SECONDS", 20, 1),
    only: only(),
  };
}
