/**
 * What the service reports into its metrics (docs/operations.md "Metrics"). Components take this small
 * interface, never the metrics library; {@link noMetrics} is what they get when metrics are off. Every
 * label value is drawn from a closed set (faces, route templates, outcomes): never an id or a raw path.
 */
export interface Metrics {
  /** One finished HTTP request: its face, route template (or "unmatched"), method, status and duration. */
  request(face: string, route: string, method: string, status: number, seconds: number): void;
  /** A request started (+1) or finished (-1). */
  inFlight(delta: number): void;
  /** One store commit acknowledged (journal durable), with the time it took. */
  commit(seconds: number): void;
  /** One delivery attempt of a queued job (`queue`: notifications, alerts, verification). */
  delivery(queue: string, outcome: "notified" | "failed" | "retrying", seconds: number): void;
  /** One SPARQL query and how it ended. */
  sparql(outcome: "ok" | "timeout" | "error", seconds: number): void;
  /** One login attempt. */
  login(ok: boolean): void;
  /** Messages a slow socket could not take (dropped, or the socket closed for them). */
  socketDropped(kind: SocketKind, n?: number): void;
  /** One tick of the demo feed. */
  feedTick(): void;
  /** Adds read-at-scrape sources (store fill, queue depths, readiness); later sources add to earlier ones. */
  addSources(sources: MetricSources): void;
}

/** The sockets the live faces hold. */
export type SocketKind = "ws" | "graphql-ws";

/** Values read when Prometheus scrapes (gauges of state the service already keeps). */
export interface MetricSources {
  store?: () => Promise<StoreFill>;
  /** Entities per tenant count, all tenants together. */
  entities?: () => number;
  /** Jobs of each queue by state (waiting, active, delayed, dead). */
  queues?: () => Promise<Record<string, Record<string, number>>>;
  /** The temporal history: instances held (all tenants) and retention passes done. */
  temporal?: () => { instances: number; retentionPasses: number };
  /** SPARQL queries running and waiting for a turn. */
  sparqlQueries?: () => { running: number; waiting: number };
  /** Open sockets of a live face. */
  sockets?: () => Partial<Record<SocketKind, number>>;
  /** The demo backfill: hours done and hours to do. */
  backfill?: () => { done: number; total: number } | undefined;
  /** Readiness checks and whether each passes. */
  readiness?: () => Promise<Record<string, boolean>>;
}

/** The store's fill as the metrics show it. */
export interface StoreFill {
  quads: number;
  storeBytes: number;
  diskFreeBytes: number;
  capacityUsed: number;
  journalBytes: number;
  compactions: number;
  journalSyncs: number;
  journalSyncSeconds: number;
}

const nothing = (): void => undefined;

/** Metrics off: every report is a no-op. */
export const noMetrics: Metrics = {
  request: nothing,
  inFlight: nothing,
  commit: nothing,
  delivery: nothing,
  sparql: nothing,
  login: nothing,
  socketDropped: nothing,
  feedTick: nothing,
  addSources: nothing,
};
