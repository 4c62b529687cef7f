import { isIP } from "node:net";
import path from "node:path";
import { ConfigError } from "./config-error";
import { authConfig, type AuthConfig } from "./auth-config";
import { reportsConfig, type ReportsConfig } from "./reports-config";
import { operationsConfig, type OperationsConfig } from "./operations-config";
import { DAY, durationVar, intVar, switchVar, urlVar } from "./env-readers";

export { ConfigError };

/** Log levels in increasing severity. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
/** One log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

// Defaults of settings whose modules also fall back on them when given no value (tests, benches, tools):
// defined once here, read by loadConfig and by those modules.
/** `BODY_READ_TIMEOUT`, ms. */
export const DEFAULT_BODY_READ_TIMEOUT_MS = 10_000;
/** `STORE_MIN_FREE_BYTES`: 1 GiB. */
export const DEFAULT_STORE_MIN_FREE_BYTES = 1024 ** 3;
/** `JOURNAL_COMPACT_BYTES`. */
export const DEFAULT_JOURNAL_COMPACT_BYTES = 256 * 1024 * 1024;
/** `CONTEXT_FETCH_TIMEOUT_MS`. */
export const DEFAULT_CONTEXT_FETCH_TIMEOUT_MS = 3000;
/** `SPARQL_MAX_QUERY_LENGTH`, characters. */
export const DEFAULT_SPARQL_MAX_QUERY_LENGTH = 200_000;
/** `SPARQL_MAX_PER_PRINCIPAL`. */
export const DEFAULT_SPARQL_MAX_PER_PRINCIPAL = 1;
/** `SPARQL_QUEUE_PER_PRINCIPAL`. */
export const DEFAULT_SPARQL_QUEUE_PER_PRINCIPAL = 2;
/** `TEMPORAL_RETENTION_INTERVAL_MS`. */
export const DEFAULT_TEMPORAL_RETENTION_INTERVAL_MS = 600_000;
/** `TEMPORAL_SEAL_INTERVAL_MS`. */
export const DEFAULT_TEMPORAL_SEAL_INTERVAL_MS = 10_000;
/** `TEMPORAL_SEAL_MAX_DEFER_MS`. */
export const DEFAULT_TEMPORAL_SEAL_MAX_DEFER_MS = 60_000;
/** `GRAPH_CACHE_BYTES`, characters of N-Triples. */
export const DEFAULT_GRAPH_CACHE_BYTES = 512 * 1024 * 1024;

/** The service configuration, read from the environment once at start. */
export interface Config {
  /** The HTTP server every face shares. */
  server: ServerConfig;
  /** The graph store and its files. */
  store: StoreConfig;
  /** JSON-LD contexts: local mirrors and remote downloads. */
  contexts: ContextsConfig;
  /** NGSI-LD entity queries. */
  query: QueryConfig;
  /** The SPARQL endpoint. */
  sparql: SparqlConfig;
  /** The temporal history. */
  temporal: TemporalConfig;
  /** The Linked Data Event Stream at `/ldes`. */
  ldes: LdesConfig;
  /** Registered context sources (distributed operations). */
  federation: FederationConfig;
  /** Camera frames. */
  images: ImagesConfig;
  /** The synthetic city: seed and live feed. */
  demo: DemoConfig;
  /** Advanced memory and throughput tuning: measured defaults (docs/decisions/), change with `npm run bench`. */
  tuning: TuningConfig;
  /** Redis connection URL; undefined = embedded (in-process) queues and counters. Env `REDIS_URL`. */
  redisUrl?: string;
  /** Notification delivery; see {@link NotifyConfig}. */
  notify: NotifyConfig;
  /** The operations dashboard served at `/`; see {@link DashboardConfig}. */
  dashboard: DashboardConfig;
  /** Identity, tokens and rate limits; see {@link AuthConfig}. */
  auth: AuthConfig;
  /** Citizen reports and alerts; see {@link ReportsConfig}. */
  reports: ReportsConfig;
  /** WebSocket and GraphQL push; see {@link LiveConfig}. */
  live: LiveConfig;
  /** Where the broker's own requests (remote @contexts, notifications) may go; see {@link OutboundConfig}. */
  outbound: OutboundConfig;
  /** Metrics, shutdown grace and trace export; see {@link OperationsConfig}. */
  operations: OperationsConfig;
}

/** The HTTP server every face shares. */
export interface ServerConfig {
  /** TCP port of every face (NGSI-LD, SPARQL, REST, GraphQL, WS). Env `PORT`, default 1026. */
  port: number;
  /** Address to bind. Env `HOST`, default 0.0.0.0. */
  host: string;
  /** Env `LOG_LEVEL`: debug, info, warn, error. Default info. */
  logLevel: LogLevel;
  /** Largest accepted request body in bytes. Env `MAX_BODY_BYTES`, default 2 MiB. */
  maxBodyBytes: number;
  /**
   * Longest time a request body may take to arrive; a slower one is answered 408 and its connection
   * closed. Env `BODY_READ_TIMEOUT` (`10s`, `500ms`), default 10 s.
   */
  bodyReadTimeoutMs: number;
  /**
   * The origin (and path prefix) clients reach the service at, without a trailing slash: the IRIs the
   * service mints in its documents (the LDES stream and pages, a created @context's address, a report's
   * media) start with it, whatever `Host` a request names. Env `PUBLIC_URL`
   * (`https://traffic.example.org`); unset = the address the service listens on (LDES), the request's
   * scheme and `Host` (the others).
   */
  publicUrl?: string;
}

/** The graph store and its files. */
export interface StoreConfig {
  /** Where the stores, journal, checkpoints and caches live. Env `DATA_DIR`, default ./data. */
  dataDir: string;
  /**
   * Free bytes of the disk holding DATA_DIR below which writes fail with 507, so that the journal and the
   * RocksDB stores never run out of room mid-write. Env `STORE_MIN_FREE_BYTES`, default 1 GiB.
   */
  minFreeBytes: number;
  /** Journal size that triggers compaction, bytes. Env `JOURNAL_COMPACT_BYTES`, default 256 MiB. */
  journalCompactBytes: number;
  /**
   * Journal size past which a due compaction starts at once, burst or not (bounds the journal that a start
   * replays), bytes. Env `JOURNAL_COMPACT_MAX_BYTES`, default 4x `JOURNAL_COMPACT_BYTES`
   * (docs/decisions/0005-maintenance-after-a-burst.md).
   */
  journalCompactMaxBytes: number;
  /**
   * How often the image of the derived indexes is written while the service runs, once a compaction has
   * made the last one too old for a start after a crash to use (docs/operations.md "Restart and upgrade"),
   * ms; 0 = only at a clean stop. Each write holds the main thread (docs/decisions/0019-native-store.md "At
   * start"). Env `INDEX_IMAGE_EVERY` (a duration), default 0.
   */
  indexImageEveryMs: number;
}

/** JSON-LD contexts: local mirrors and remote downloads. */
export interface ContextsConfig {
  /** Folder of extra URL -> file context mappings (index.json). Env `PRELOAD_CONTEXTS_DIR`. */
  preloadContextsDir?: string;
  /** Timeout for fetching a remote @context, ms. Env `CONTEXT_FETCH_TIMEOUT_MS`, default 3000. */
  contextFetchTimeoutMs: number;
  /** Remote @contexts kept in the disk and memory cache, least recently fetched out first. Env `CONTEXT_CACHE_MAX`, default 500. */
  contextCacheMax: number;
}

/** NGSI-LD entity queries. */
export interface QueryConfig {
  /** Largest page an entity query may return (`limit`). Env `MAX_LIMIT`, default 1000. */
  maxLimit: number;
}

/** The SPARQL endpoint. */
export interface SparqlConfig {
  /** A /sparql query running longer is stopped, ms. Env `SPARQL_TIMEOUT` (`10s`, `500ms`, `2m`), default 10 s. */
  sparqlTimeoutMs: number;
  /**
   * /sparql queries running at once over all principals, each on a thread of its own at low priority;
   * more wait in line (docs/sparql.md). Env `SPARQL_MAX_RUNNING`, default 4.
   */
  sparqlMaxRunning: number;
  /** Characters of a /sparql query text; a longer one is 400. Env `SPARQL_MAX_QUERY_LENGTH`, default 200,000. */
  sparqlMaxQueryLength: number;
  /** Rows (or triples) a /sparql answer may hold; the rest is cut off. Env `SPARQL_MAX_ROWS`, default 100,000. */
  sparqlMaxRows: number;
  /** /sparql queries one principal may have running at once. Env `SPARQL_MAX_PER_PRINCIPAL`, default 1. */
  sparqlMaxPerPrincipal: number;
  /**
   * /sparql queries of one principal that wait for its running ones; one more is 503 with Retry-After.
   * Env `SPARQL_QUEUE_PER_PRINCIPAL`, default 2.
   */
  sparqlQueuePerPrincipal: number;
}

/** The Linked Data Event Stream at `/ldes` (docs/ldes.md). */
export interface LdesConfig {
  /** Length of a page of the stream. Env `LDES_PAGE` (`1h`, `10m`), default 1 hour. */
  ldesPageMs: number;
  /** `max-age` (s) of the stream, the view and the open page. Env `LDES_MAX_AGE`, default 5. */
  ldesMaxAgeS: number;
  /**
   * Members in one page; a time page with more is cut into parts linked one to the next. Env
   * `LDES_PAGE_MEMBERS`, default 250 (docs/ldes.md "Pages").
   */
  ldesPageMembers: number;
  /** Bytes of rendered closed pages kept for the next client (gzip forms included). Env `LDES_CACHE_BYTES`, default 64 MiB. */
  ldesCacheBytes: number;
}

/** The temporal history. */
export interface TemporalConfig {
  /**
   * How long raw instances are kept; older ones are folded into hourly aggregates (docs/architecture.md
   * "Retention tiers"). Env `TEMPORAL_RAW_RETENTION` (`2d`, `12h`), default 2 days; `0` = keep raw.
   */
  temporalRawRetentionMs: number;
  /**
   * How long hourly aggregates are kept; older ones are folded into daily aggregates. Env
   * `TEMPORAL_HOURLY_RETENTION`, default 14 days; `0` = keep hourly; not shorter than the raw window.
   */
  temporalHourlyRetentionMs: number;
  /**
   * How long anything of the history is kept (daily aggregates included): older leaves memory, disk and
   * the graph. Env `TEMPORAL_RETENTION` (`365d`), default `0` = keep the daily aggregates for ever.
   */
  temporalRetentionMs: number;
  /** How often the retention pass runs. Env `TEMPORAL_RETENTION_INTERVAL_MS`, default 10 minutes. */
  temporalRetentionIntervalMs: number;
  /**
   * Most instances per attribute in one temporal answer; more gives 206 with `Content-Range` (ETSI GS CIM
   * 009 v1.8 §6.3.10). Env `TEMPORAL_PAGE_INSTANCES`, default 10,000.
   */
  temporalPageInstances: number;
  /**
   * How often closed hours of the temporal history are sealed into the graph as segments (
   * docs/architecture.md "Temporal history in the graph"). Env `TEMPORAL_SEAL_INTERVAL_MS`, default 10 s.
   */
  temporalSealMs: number;
}

/** Registered context sources (distributed operations). */
export interface FederationConfig {
  /**
   * Timeout of a request to a registered context source whose registration sets no `management.timeout`,
   * ms (distributed operations). Env `FEDERATION_TIMEOUT_MS`, default 3000.
   */
  federationTimeoutMs: number;
  /**
   * This broker's name in the `Via` header of requests it passes on to context sources (loop detection).
   * Env `FEDERATION_BROKER_ID`, default `citygraph-<random>` (new at each start).
   */
  federationBrokerId?: string;
}

/** Camera frames. */
export interface ImagesConfig {
  /**
   * URL template of camera snapshots for `latest-image` (`{id}` = camera id, `{image_url}` = the camera's
   * imageURL); unset = frames rendered offline. Env `CAMERA_SNAPSHOT_URL`.
   */
  cameraSnapshotUrl?: string;
  /** Bytes of fetched camera frames kept under DATA_DIR/media/cameras. Env `CAMERA_SNAPSHOT_CACHE_BYTES`, default 256 MiB. */
  cameraSnapshotCacheBytes: number;
}

/** The synthetic city: seed and live feed. */
export interface DemoConfig {
  /** Load the HCMC dataset into an empty store at start. Env `SEED` (on/off), default on. */
  seed: boolean;
  /** Run the live observation feed. Env `FEED` (on/off), default on. */
  feed: boolean;
  /** History the feed sends at start before it follows the clock. Env `FEED_BACKFILL` (`26h`, `2h`), default 26 h. */
  backfillMs: number;
}

/** Advanced memory and throughput tuning: measured defaults (docs/decisions/), change with `npm run bench`. */
export interface TuningConfig {
  /**
   * Size of the main thread's graph cache, in characters of entity N-Triples (reads that hit it skip the
   * store). Env `GRAPH_CACHE_BYTES`, default 512 Mi characters: how many entities and how much heap that
   * is, and why so much, in docs/decisions/0010-graph-cache.md.
   */
  graphCacheBytes: number;
  /**
   * How far V8 lets each thread's old generation grow past what the last full GC kept, in percent
   * (V8 flag `--heap-growing-percent`, set at start by main.ts). Env `HEAP_GROWING_PERCENT`, default 0 =
   * V8's own factor. A lower value holds less heap but makes full GCs more frequent, which lengthened the
   * query tail: an operator's choice for a memory-bound host (docs/decisions/0003-heap-growing-percent.md).
   */
  heapGrowingPercent: number;
  /**
   * How often the main thread checks glibc's free memory and gives it back with `malloc_trim` (optional
   * addon citygraph-malloc-trim, src/runtime/malloc-trim.ts), ms. Env `MALLOC_TRIM_INTERVAL_MS`, default 1000;
   * 0 = off (docs/decisions/0004-malloc-trim-and-heap-reduce.md).
   */
  mallocTrimIntervalMs: number;
  /**
   * How often the main thread and the store worker check whether they are idle with a heap grown well past
   * its last reduced size, and then start a GC that gives the free heap back (src/runtime/heap-reduce.ts, needs the
   * optional addon citygraph-malloc-trim), ms. Env `HEAP_REDUCE_INTERVAL_MS`, default 250; 0 = off
   * (docs/decisions/0004-malloc-trim-and-heap-reduce.md).
   */
  heapReduceIntervalMs: number;
  /**
   * A due compaction waits for a pause of this long in the commits (maintenance after a write burst, not
   * during it), ms. Env `JOURNAL_COMPACT_QUIET_MS`, default 0 = compact at once: putting it off gained the
   * burst little and left a stop soon after it a long journal to replay at the next start
   * (docs/decisions/0005-maintenance-after-a-burst.md).
   */
  journalCompactQuietMs: number;
  /**
   * Estimated bytes of entity JSON texts the query path keeps rendered (as ETSI GS CIM 009 v1.8 §5.7.2
   * answers list them), so an entity listed again is not read and rendered anew. Env `QUERY_CACHE_BYTES`,
   * default 128 MiB; 0 = none (docs/decisions/0016-capacity.md, the memory model).
   */
  queryCacheBytes: number;
  /**
   * Timed seals wait until the history saw no write for this long (sealing after a write burst instead
   * of during it), ms. Env `TEMPORAL_SEAL_QUIET_MS`, default 0 = seal on time: the sealing runs on the main
   * thread, so putting it off moves it into the reads that follow the burst
   * (docs/decisions/0005-maintenance-after-a-burst.md).
   */
  temporalSealQuietMs: number;
  /**
   * Longest time a write burst puts timed seals off, ms, so a steady stream of writes does not starve them.
   * Env `TEMPORAL_SEAL_MAX_DEFER_MS`, default 60 s (docs/decisions/0005-maintenance-after-a-burst.md).
   */
  temporalSealMaxDeferMs: number;
}

/** The outbound policy (src/jobs/outbound-policy.ts). Link-local addresses and the broker itself are always denied. */
export interface OutboundConfig {
  /**
   * Loopback addresses may be reached (ports other than the broker's). Env `OUTBOUND_ALLOW_LOOPBACK`
   * (on/off), default off; the ETSI conformance run needs it on (its receivers listen on 127.0.0.1).
   */
  allowLoopback: boolean;
  /** More denied destinations: IPs, CIDR ranges, host names, comma-separated. Env `OUTBOUND_DENY`. */
  deny: string[];
}

/** The live faces: WebSocket `/ws`, GraphQL `/graphql` (docs/graphql-and-websocket.md). */
export interface LiveConfig {
  /** Redis pub/sub channel of the live events (with `REDIS_URL`). Env `LIVE_CHANNEL`, default citygraph:live. */
  channel: string;
  /** Ping interval; a socket that missed the previous pong is dropped. Env `WS_HEARTBEAT`, default 30s. */
  heartbeatMs: number;
  /** Subscriptions one `/ws` or graphql-ws connection may hold. Env `WS_MAX_SUBSCRIPTIONS`, default 20. */
  maxSubscriptions: number;
  /** Sockets one user or API key may hold open over `/ws` and graphql-ws. Env `WS_MAX_SOCKETS_PER_PRINCIPAL`, default 20. */
  maxSocketsPerPrincipal: number;
  /** Messages waiting for one slow socket before it is closed (4008). Env `WS_QUEUE_MESSAGES`, default 256. */
  queueMessages: number;
  /** Largest client frame; larger closes the socket with 1009. Env `WS_MAX_FRAME_BYTES`, default 64 KiB. */
  maxFrameBytes: number;
  /** Client messages per second one socket may send (a burst of twice that). Env `WS_MESSAGES_PER_SECOND`, default 20. */
  messagesPerSecond: number;
  /** Deepest GraphQL selection. Env `GRAPHQL_MAX_DEPTH`, default 10. */
  graphqlMaxDepth: number;
  /** Most GraphQL result nodes a query may ask for (lists count at their limit). Env `GRAPHQL_MAX_COST`, default 20,000. */
  graphqlMaxCost: number;
  /** Most aliased fields one GraphQL query may hold (`TOO_MANY_ALIASES`). Env `GRAPHQL_MAX_ALIASES`, default 50. */
  graphqlMaxAliases: number;
  /**
   * Time one GraphQL query or mutation (HTTP or graphql-ws) may take: resolvers starting later fail with
   * `QUERY_TIMEOUT`. Env `GRAPHQL_TIMEOUT`, default 5 s.
   */
  graphqlTimeoutMs: number;
}

/** The operations dashboard (web/, served at `/`). */
export interface DashboardConfig {
  /**
   * Tile URL template of the map's background (`https://tile.openstreetmap.org/{z}/{x}/{y}.png`). Env
   * `MAP_TILES_URL`; unset = a plain background with the district polygons (works with no internet).
   */
  tilesUrl?: string;
  /** Attribution shown for those tiles. Env `MAP_TILES_ATTRIBUTION`, default © OpenStreetMap contributors. */
  tilesAttribution: string;
  /** Folder of the built dashboard. Env `DASHBOARD_DIR`; unset = dist/web of this checkout. */
  dir?: string;
}

/** How notifications are delivered. */
export interface NotifyConfig {
  /** Attempts per notification, the first included. Env `NOTIFY_ATTEMPTS`, default 12. */
  attempts: number;
  /** Delay before the first retry; doubles at each retry. Env `NOTIFY_BACKOFF`, default 1s. */
  backoffMs: number;
  /** Longest delay between attempts. Env `NOTIFY_BACKOFF_MAX`, default 5m. */
  backoffMaxMs: number;
  /** Timeout of one delivery request. Env `NOTIFY_TIMEOUT`, default 10s. */
  timeoutMs: number;
  /** Deliveries in flight at once. Env `NOTIFY_CONCURRENCY`, default 64. */
  concurrency: number;
  /** Deliveries in flight to one endpoint (scheme, host, port) at once. Env `NOTIFY_PER_ENDPOINT`, default 16. */
  perEndpoint: number;
  /** BullMQ queue name (Redis mode). Env `NOTIFY_QUEUE`, default citygraph-notify. */
  queueName: string;
  /** A job left active by a dead process is taken back after this (Redis mode). Env `NOTIFY_STALLED`, default 5s. */
  stalledMs: number;
  /** Dead (failed for good) jobs kept for inspection. Env `NOTIFY_KEEP_DEAD`, default 10,000. */
  keepDead: number;
  /** Delivery statuses of subscriptions are written to the graph at most this often. Env `SUBSCRIPTION_STATUS_FLUSH`, default 2s. */
  statusFlushMs: number;
  /** Notifications of one subscription per second; more are dropped and logged. Env `NOTIFY_MAX_RATE`, default 1000. */
  maxRate: number;
}

/** The retention windows of the temporal history; each kept tier is at least as long as the one before. */
function retentionWindows(env: NodeJS.ProcessEnv) {
  const w = {
    temporalRawRetentionMs: durationVar(env, "TEMPORAL_RAW_RETENTION", 2 * DAY, 0, 3650 * DAY),
    temporalHourlyRetentionMs: durationVar(env, "TEMPORAL_HOURLY_RETENTION", 14 * DAY, 0, 3650 * DAY),
    temporalRetentionMs: durationVar(env, "TEMPORAL_RETENTION", 0, 0, 3650 * DAY),
  };
  const longer = (a: number, b: number) => b === 0 || (a > 0 && a <= b);
  if (w.temporalRawRetentionMs > 0 && !longer(w.temporalRawRetentionMs, w.temporalHourlyRetentionMs)) {
    throw new ConfigError("TEMPORAL_HOURLY_RETENTION must be 0 or at least TEMPORAL_RAW_RETENTION");
  }
  if (w.temporalRetentionMs > 0) {
    const longest = Math.max(w.temporalRawRetentionMs, w.temporalHourlyRetentionMs);
    if (
      w.temporalRawRetentionMs === 0 ||
      w.temporalHourlyRetentionMs === 0 ||
      w.temporalRetentionMs < longest
    ) {
      throw new ConfigError(
        "TEMPORAL_RETENTION must be at least TEMPORAL_RAW_RETENTION and TEMPORAL_HOURLY_RETENTION, which must then be set",
      );
    }
  }
  return w;
}

/** Reads and validates the configuration from `env`; throws ConfigError with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const level = (env.LOG_LEVEL ?? "info").trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${env.LOG_LEVEL}"`);
  }
  const compactBytes = intVar(
    env,
    "JOURNAL_COMPACT_BYTES",
    DEFAULT_JOURNAL_COMPACT_BYTES,
    1024,
    64 * 1024 ** 3,
  );
  return {
    server: {
      port: intVar(env, "PORT", 1026, 0, 65535),
      host: env.HOST?.trim() || "0.0.0.0",
      logLevel: level as LogLevel,
      maxBodyBytes: intVar(env, "MAX_BODY_BYTES", 2 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      bodyReadTimeoutMs: durationVar(env, "BODY_READ_TIMEOUT", DEFAULT_BODY_READ_TIMEOUT_MS, 100, 600_000),
      publicUrl: publicUrlVar(env),
    },
    store: {
      dataDir: path.resolve(env.DATA_DIR?.trim() || "./data"),
      minFreeBytes: intVar(
        env,
        "STORE_MIN_FREE_BYTES",
        DEFAULT_STORE_MIN_FREE_BYTES,
        0,
        Number.MAX_SAFE_INTEGER,
      ),
      journalCompactBytes: compactBytes,
      journalCompactMaxBytes: intVar(
        env,
        "JOURNAL_COMPACT_MAX_BYTES",
        4 * compactBytes,
        compactBytes,
        256 * 1024 ** 3,
      ),
      indexImageEveryMs: durationVar(env, "INDEX_IMAGE_EVERY", 0, 0, 7 * 86_400_000),
    },
    contexts: {
      preloadContextsDir: env.PRELOAD_CONTEXTS_DIR?.trim()
        ? path.resolve(env.PRELOAD_CONTEXTS_DIR)
        : undefined,
      contextFetchTimeoutMs: intVar(
        env,
        "CONTEXT_FETCH_TIMEOUT_MS",
        DEFAULT_CONTEXT_FETCH_TIMEOUT_MS,
        10,
        120_000,
      ),
      contextCacheMax: intVar(env, "CONTEXT_CACHE_MAX", 500, 1, 1_000_000),
    },
    query: {
      maxLimit: intVar(env, "MAX_LIMIT", 1000, 1, 100_000),
    },
    sparql: {
      sparqlTimeoutMs: durationVar(env, "SPARQL_TIMEOUT", 10_000, 10, 3_600_000),
      sparqlMaxRows: intVar(env, "SPARQL_MAX_ROWS", 100_000, 1, 10_000_000),
      sparqlMaxPerPrincipal: intVar(env, "SPARQL_MAX_PER_PRINCIPAL", DEFAULT_SPARQL_MAX_PER_PRINCIPAL, 1, 64),
      sparqlQueuePerPrincipal: intVar(
        env,
        "SPARQL_QUEUE_PER_PRINCIPAL",
        DEFAULT_SPARQL_QUEUE_PER_PRINCIPAL,
        0,
        1_000,
      ),
      sparqlMaxRunning: intVar(env, "SPARQL_MAX_RUNNING", 4, 1, 64),
      sparqlMaxQueryLength: intVar(
        env,
        "SPARQL_MAX_QUERY_LENGTH",
        DEFAULT_SPARQL_MAX_QUERY_LENGTH,
        100,
        100_000_000,
      ),
    },
    temporal: {
      ...retentionWindows(env),
      temporalRetentionIntervalMs: intVar(
        env,
        "TEMPORAL_RETENTION_INTERVAL_MS",
        DEFAULT_TEMPORAL_RETENTION_INTERVAL_MS,
        10,
        86_400_000,
      ),
      temporalPageInstances: intVar(env, "TEMPORAL_PAGE_INSTANCES", 10_000, 1, 10_000_000),
      temporalSealMs: intVar(
        env,
        "TEMPORAL_SEAL_INTERVAL_MS",
        DEFAULT_TEMPORAL_SEAL_INTERVAL_MS,
        10,
        3_600_000,
      ),
    },
    ldes: {
      ldesPageMs: durationVar(env, "LDES_PAGE", 3_600_000, 1000, 31 * DAY),
      ldesMaxAgeS: intVar(env, "LDES_MAX_AGE", 5, 0, 86_400),
      ldesPageMembers: intVar(env, "LDES_PAGE_MEMBERS", 250, 1, 100_000),
      ldesCacheBytes: intVar(env, "LDES_CACHE_BYTES", 64 * 1024 * 1024, 0, 64 * 1024 ** 3),
    },
    federation: {
      federationTimeoutMs: intVar(env, "FEDERATION_TIMEOUT_MS", 3000, 10, 600_000),
      federationBrokerId: env.FEDERATION_BROKER_ID?.trim() || undefined,
    },
    images: {
      cameraSnapshotUrl: env.CAMERA_SNAPSHOT_URL?.trim() || undefined,
      cameraSnapshotCacheBytes: intVar(env, "CAMERA_SNAPSHOT_CACHE_BYTES", 256 * 1024 * 1024, 0, 1024 ** 4),
    },
    demo: {
      seed: switchVar(env, "SEED", true),
      feed: switchVar(env, "FEED", true),
      backfillMs: durationVar(env, "FEED_BACKFILL", 26 * 3_600_000, 0, 30 * DAY),
    },
    tuning: {
      graphCacheBytes: intVar(env, "GRAPH_CACHE_BYTES", DEFAULT_GRAPH_CACHE_BYTES, 0, 16 * 1024 ** 3),
      heapGrowingPercent: intVar(env, "HEAP_GROWING_PERCENT", 0, 0, 1000),
      mallocTrimIntervalMs: intVar(env, "MALLOC_TRIM_INTERVAL_MS", 1000, 0, 3_600_000),
      heapReduceIntervalMs: intVar(env, "HEAP_REDUCE_INTERVAL_MS", 250, 0, 3_600_000),
      journalCompactQuietMs: intVar(env, "JOURNAL_COMPACT_QUIET_MS", 0, 0, 3_600_000),
      queryCacheBytes: intVar(env, "QUERY_CACHE_BYTES", 128 * 1024 * 1024, 0, 64 * 1024 ** 3),
      temporalSealQuietMs: intVar(env, "TEMPORAL_SEAL_QUIET_MS", 0, 0, 3_600_000),
      temporalSealMaxDeferMs: intVar(
        env,
        "TEMPORAL_SEAL_MAX_DEFER_MS",
        DEFAULT_TEMPORAL_SEAL_MAX_DEFER_MS,
        0,
        86_400_000,
      ),
    },
    redisUrl: urlVar(env, "REDIS_URL", ["redis:", "rediss:"]),
    notify: notifyConfig(env),
    dashboard: {
      tilesUrl: tilesUrlVar(env),
      tilesAttribution: env.MAP_TILES_ATTRIBUTION?.trim() || "© OpenStreetMap contributors",
      dir: env.DASHBOARD_DIR?.trim() ? path.resolve(env.DASHBOARD_DIR) : undefined,
    },
    auth: authConfig(env),
    outbound: {
      allowLoopback: switchVar(env, "OUTBOUND_ALLOW_LOOPBACK", false),
      deny: denyList(env, "OUTBOUND_DENY"),
    },
    reports: reportsConfig(env),
    live: liveConfig(env),
    operations: operationsConfig(env),
  };
}

function liveConfig(env: NodeJS.ProcessEnv): LiveConfig {
  const channel = env.LIVE_CHANNEL?.trim() || "citygraph:live";
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(channel)) {
    throw new ConfigError(
      `LIVE_CHANNEL must be 1 to 100 letters, digits, '_', '.', ':' or '-', got "${channel}"`,
    );
  }
  return {
    channel,
    heartbeatMs: durationVar(env, "WS_HEARTBEAT", 30_000, 10, 3_600_000),
    maxSubscriptions: intVar(env, "WS_MAX_SUBSCRIPTIONS", 20, 1, 10_000),
    maxSocketsPerPrincipal: intVar(env, "WS_MAX_SOCKETS_PER_PRINCIPAL", 20, 1, 100_000),
    queueMessages: intVar(env, "WS_QUEUE_MESSAGES", 256, 1, 1_000_000),
    maxFrameBytes: intVar(env, "WS_MAX_FRAME_BYTES", 64 * 1024, 256, 64 * 1024 * 1024),
    messagesPerSecond: intVar(env, "WS_MESSAGES_PER_SECOND", 20, 1, 100_000),
    graphqlMaxDepth: intVar(env, "GRAPHQL_MAX_DEPTH", 10, 2, 1000),
    graphqlMaxCost: intVar(env, "GRAPHQL_MAX_COST", 20_000, 1, 100_000_000),
    graphqlMaxAliases: intVar(env, "GRAPHQL_MAX_ALIASES", 50, 0, 100_000),
    graphqlTimeoutMs: durationVar(env, "GRAPHQL_TIMEOUT", 5_000, 10, 3_600_000),
  };
}

/** A comma-separated list of IP addresses, CIDR ranges (`10.0.0.0/8`) and host names. */
function denyList(env: NodeJS.ProcessEnv, name: string): string[] {
  const items = (env[name] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    const [addr, bits, more] = item.split("/");
    const v4 = isIP(addr) === 4;
    const max = v4 ? 32 : 128;
    const ok =
      more === undefined &&
      (bits === undefined
        ? isIP(addr) !== 0 || /^[a-z0-9.-]+$/i.test(addr)
        : isIP(addr) !== 0 && /^\d+$/.test(bits) && Number(bits) <= max);
    if (!ok)
      throw new ConfigError(`${name} must list IP addresses, CIDR ranges or host names, got "${item}"`);
  }
  return items;
}

/** `PUBLIC_URL`: an http(s) origin with an optional path, no query or fragment; kept without a trailing slash. */
function publicUrlVar(env: NodeJS.ProcessEnv): string | undefined {
  const raw = urlVar(env, "PUBLIC_URL", ["http:", "https:"]);
  if (!raw) return undefined;
  const u = new URL(raw);
  if (u.search || u.hash || u.username || u.password) {
    throw new ConfigError(`PUBLIC_URL must be an origin with an optional path, got "${raw}"`);
  }
  return `${u.origin}${u.pathname}`.replace(/\/+$/, "");
}

/** `MAP_TILES_URL`: an http(s) Leaflet template naming {z}, {x} and {y}. */
function tilesUrlVar(env: NodeJS.ProcessEnv): string | undefined {
  const raw = urlVar(env, "MAP_TILES_URL", ["http:", "https:"]);
  if (raw && !["{z}", "{x}", "{y}"].every((p) => raw.includes(p))) {
    throw new ConfigError(`MAP_TILES_URL must contain {z}, {x} and {y}, got "${raw}"`);
  }
  return raw;
}

function notifyConfig(env: NodeJS.ProcessEnv): NotifyConfig {
  const queueName = env.NOTIFY_QUEUE?.trim() || "citygraph-notify";
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(queueName)) {
    throw new ConfigError(
      `NOTIFY_QUEUE must be 1 to 100 letters, digits, '_', '.' or '-', got "${queueName}"`,
    );
  }
  const backoffMs = durationVar(env, "NOTIFY_BACKOFF", 1000, 1, 3_600_000);
  const backoffMaxMs = durationVar(env, "NOTIFY_BACKOFF_MAX", 300_000, 1, 86_400_000);
  if (backoffMaxMs < backoffMs)
    throw new ConfigError("NOTIFY_BACKOFF_MAX must not be shorter than NOTIFY_BACKOFF");
  return {
    attempts: intVar(env, "NOTIFY_ATTEMPTS", 12, 1, 1000),
    backoffMs,
    backoffMaxMs,
    timeoutMs: durationVar(env, "NOTIFY_TIMEOUT", 10_000, 10, 600_000),
    concurrency: intVar(env, "NOTIFY_CONCURRENCY", 64, 1, 10_000),
    perEndpoint: intVar(env, "NOTIFY_PER_ENDPOINT", 16, 1, 10_000),
    queueName,
    stalledMs: durationVar(env, "NOTIFY_STALLED", 5000, 100, 3_600_000),
    keepDead: intVar(env, "NOTIFY_KEEP_DEAD", 10_000, 0, 10_000_000),
    statusFlushMs: durationVar(env, "SUBSCRIPTION_STATUS_FLUSH", 2000, 10, 3_600_000),
    maxRate: intVar(env, "NOTIFY_MAX_RATE", 1000, 1, 1_000_000),
  };
}
