import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { FastHistogram } from "./fast-histogram";
import type { MetricSources, Metrics, SocketKind } from "./metrics";

/** Buckets of request and commit latency, seconds: 1 ms to 10 s. */
const LATENCY = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Buckets of delivery and SPARQL durations, seconds: 5 ms to 60 s. */
const SLOW = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The metrics of a running service and the text Prometheus scrapes. */
export interface PrometheusMetrics extends Metrics {
  /** The exposition text (Prometheus text format 0.0.4). */
  render(): Promise<string>;
  readonly contentType: string;
}

/**
 * The one registry of the service and every metric it defines (docs/operations.md "Metrics"): counters and
 * histograms fed through {@link Metrics}, gauges read from {@link MetricSources} when Prometheus scrapes, and
 * the Node process defaults. Names start with `citygraph_`.
 */
export function prometheusMetrics(): PrometheusMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const sources: MetricSources[] = [];
  const def = { registers: [registry] };

  const requests = new FastHistogram(
    "citygraph_http_request_duration_seconds",
    "HTTP requests by face, route template, method and status, and how long they took",
    ["face", "route", "method", "status"],
    LATENCY,
    registry,
  );
  // a plain number, read at the scrape: nothing of prom-client runs per request for it
  let inFlight = 0;
  new Gauge({
    name: "citygraph_http_requests_in_flight",
    help: "HTTP requests being served",
    ...def,
    collect() {
      this.set(inFlight);
    },
  });
  const refusals = new Counter({
    name: "citygraph_auth_refusals_total",
    help: "Requests refused with 401, 403 or 429",
    labelNames: ["status"],
    ...def,
  });
  const logins = new Counter({
    name: "citygraph_auth_logins_total",
    help: "Login attempts by outcome",
    labelNames: ["outcome"],
    ...def,
  });
  const commits = new FastHistogram(
    "citygraph_store_commit_duration_seconds",
    "Store commits, from the call to the durable journal record",
    [],
    LATENCY,
    registry,
  ).series([]);
  const deliveries = new Histogram({
    name: "citygraph_delivery_duration_seconds",
    help: "Delivery attempts of queued jobs by queue and outcome (notified, failed for good, retrying)",
    labelNames: ["queue", "outcome"],
    buckets: SLOW,
    ...def,
  });
  const sparql = new Histogram({
    name: "citygraph_sparql_query_duration_seconds",
    help: "SPARQL queries by outcome (ok, timeout, error)",
    labelNames: ["outcome"],
    buckets: SLOW,
    ...def,
  });
  const dropped = new Counter({
    name: "citygraph_live_dropped_messages_total",
    help: "Live messages a slow socket could not take",
    labelNames: ["kind"],
    ...def,
  });
  const ticks = new Counter({ name: "citygraph_feed_ticks_total", help: "Ticks of the demo feed", ...def });
  scrapeGauges(registry, sources);

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    request(face, route, method, status, seconds) {
      requests.series([face, route, method, String(status)]).observe(seconds);
      if (status === 401 || status === 403 || status === 429) refusals.labels(String(status)).inc();
    },
    inFlight: (delta) => void (inFlight += delta),
    commit: (seconds) => commits.observe(seconds),
    delivery: (queue, outcome, seconds) => deliveries.labels(queue, outcome).observe(seconds),
    sparql: (outcome, seconds) => sparql.labels(outcome).observe(seconds),
    login: (ok) => logins.labels(ok ? "ok" : "failed").inc(),
    socketDropped: (kind: SocketKind, n = 1) => dropped.labels(kind).inc(n),
    feedTick: () => ticks.inc(),
    addSources: (s) => void sources.push(s),
  };
}

/** A gauge whose value is read from the sources at each scrape. */
function sourced(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  read: (set: (value: number, labels?: Record<string, string>) => void) => Promise<void> | void,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await read((v, labels) => (labels ? this.set(labels, v) : this.set(v)));
    },
  });
}

/** The gauges of state the service keeps: store fill, queues, history, backfill, readiness. */
function scrapeGauges(registry: Registry, sources: MetricSources[]): void {
  const each = async <K extends keyof MetricSources>(
    key: K,
    use: (f: NonNullable<MetricSources[K]>) => Promise<void> | void,
  ) => {
    for (const s of sources) {
      const f = s[key];
      if (f) await use(f as NonNullable<MetricSources[K]>);
    }
  };
  const store =
    (
      field:
        | "quads"
        | "storeBytes"
        | "diskFreeBytes"
        | "capacityUsed"
        | "journalBytes"
        | "compactions"
        | "journalSyncs"
        | "journalSyncSeconds",
    ) =>
    (set: (v: number) => void) =>
      each("store", async (f) => set((await f())[field]));
  sourced(registry, "citygraph_store_quads", "Quads in the store", [], store("quads"));
  sourced(registry, "citygraph_store_bytes", "Bytes of the RocksDB stores on disk", [], store("storeBytes"));
  sourced(
    registry,
    "citygraph_store_disk_free_bytes",
    "Free bytes of the disk holding DATA_DIR (writes are refused below STORE_MIN_FREE_BYTES)",
    [],
    store("diskFreeBytes"),
  );
  sourced(
    registry,
    "citygraph_store_journal_bytes",
    "Bytes in the journal's current segment",
    [],
    store("journalBytes"),
  );
  sourced(registry, "citygraph_store_compactions_total", "Compactions since start", [], store("compactions"));
  sourced(
    registry,
    "citygraph_store_journal_syncs_total",
    "Durable journal writes since start",
    [],
    store("journalSyncs"),
  );
  sourced(
    registry,
    "citygraph_store_journal_sync_seconds_total",
    "Seconds spent in durable journal writes since start (divide by the syncs for the mean fsync latency)",
    [],
    store("journalSyncSeconds"),
  );
  sourced(
    registry,
    "citygraph_store_capacity_used_ratio",
    "Share of the store's disk in use",
    [],
    store("capacityUsed"),
  );
  sourced(registry, "citygraph_store_entities", "Entities in every tenant", [], (set) =>
    each("entities", (f) => set(f())),
  );
  sourced(
    registry,
    "citygraph_queue_jobs",
    "Queued jobs by queue and state (waiting, active, delayed, dead)",
    ["queue", "state"],
    (set) =>
      each("queues", async (f) => {
        for (const [queue, counts] of Object.entries(await f()))
          for (const [state, n] of Object.entries(counts)) set(n, { queue, state });
      }),
  );
  sourced(registry, "citygraph_temporal_instances", "Temporal instances held", [], (set) =>
    each("temporal", (f) => set(f().instances)),
  );
  sourced(
    registry,
    "citygraph_temporal_retention_passes_total",
    "Passes of the temporal retention since start",
    [],
    (set) => each("temporal", (f) => set(f().retentionPasses)),
  );
  sourced(registry, "citygraph_sparql_queries", "SPARQL queries running and waiting", ["state"], (set) =>
    each("sparqlQueries", (f) => {
      for (const [state, n] of Object.entries(f())) set(n, { state });
    }),
  );
  sourced(
    registry,
    "citygraph_feed_backfill_ratio",
    "Share of the demo feed's backfill done (1 = done)",
    [],
    (set) =>
      each("backfill", (f) => {
        const b = f();
        if (b) set(b.total > 0 ? b.done / b.total : 1);
      }),
  );
  sourced(
    registry,
    "citygraph_live_connections",
    "Open WebSocket (/ws) and graphql-ws connections",
    ["kind"],
    (set) =>
      each("sockets", (f) => {
        for (const [kind, n] of Object.entries(f())) set(n ?? 0, { kind });
      }),
  );
  sourced(registry, "citygraph_ready", "Readiness checks (1 = passes)", ["check"], (set) =>
    each("readiness", async (f) => {
      for (const [check, ok] of Object.entries(await f())) set(ok ? 1 : 0, { check });
    }),
  );
}
