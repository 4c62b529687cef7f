import { faceRouter } from "./face-router";
import { renderProblem } from "../../api/http/faces";
import type { HealthProbe } from "../../api/http/health-routes";
import { registerSparqlRoutes } from "../../api/sparql/sparql-routes";
import type { Config } from "../../config/config";
import type { Logger } from "../../log/logger";
import { SparqlReplica } from "../../store/replica/sparql-replica";
import { SparqlReplicaPool } from "../../store/replica/replica-pool";
import type { CommitPipeline } from "../../events/commit-pipeline";
import { AppError } from "../../errors";
import type { Metrics } from "../../observability/metrics";
import type { Face } from "./face";

/**
 * SPARQL 1.1 Protocol at `/sparql`, answered by read replicas (SPARQL_REPLICAS) in workers of their own that
 * follow the change feed as derived stages of the commit pipeline.
 */
export function sparqlFace(
  config: Config,
  log: Logger,
  pipeline: CommitPipeline,
  metrics: Metrics,
): Face & { health: HealthProbe } {
  const replica = () =>
    new SparqlReplica({
      dataDir: config.store.dataDir,
      store: pipeline.feed("SPARQL replica"),
      timeoutMs: config.sparql.sparqlTimeoutMs,
      eager: config.sparql.sparqlReplica === "eager",
      reclaimDroppedQuads: config.tuning.storeReclaimQuads,
      heapReduceIntervalMs: config.tuning.heapReduceIntervalMs,
      log: (level, msg, fields) => log.log(level, msg, fields),
    });
  const sparql = new SparqlReplicaPool(Array.from({ length: config.sparql.sparqlReplicas }, replica));
  metrics.addSources({ sparqlReplicas: () => sparql.states() });
  const router = faceRouter();
  registerSparqlRoutes(router, timedQueries(sparql, metrics), {
    maxBodyBytes: config.server.maxBodyBytes,
    maxRows: config.sparql.sparqlMaxRows,
    bodyTimeoutMs: config.server.bodyReadTimeoutMs,
    maxQueryLength: config.sparql.sparqlMaxQueryLength,
    maxPerPrincipal: config.sparql.sparqlMaxPerPrincipal,
    queuePerPrincipal: config.sparql.sparqlQueuePerPrincipal,
    // a heavy query runs up to SPARQL_TIMEOUT: its slot is free by then
    retryAfterS: Math.max(1, Math.ceil(config.sparql.sparqlTimeoutMs / 1000)),
  });
  return {
    mount: { name: "sparql", prefixes: ["/sparql"], renderError: renderProblem },
    routers: [router],
    close: () => sparql.close(),
    // never unhealthy: a replica not loaded yet loads on the first query
    health: () => Promise.resolve({ ok: true, detail: sparql.describe() }),
  };
}

/** The pool's queries, each reported to the metrics with its outcome (ok, timeout, error) and duration. */
function timedQueries(pool: SparqlReplicaPool, metrics: Metrics): Pick<SparqlReplicaPool, "query"> {
  return {
    query: async (q) => {
      const t0 = performance.now();
      try {
        const answer = await pool.query(q);
        metrics.sparql("ok", (performance.now() - t0) / 1000);
        return answer;
      } catch (e) {
        const timeout = e instanceof AppError && e.details.timeoutMs !== undefined;
        metrics.sparql(timeout ? "timeout" : "error", (performance.now() - t0) / 1000);
        throw e;
      }
    },
  };
}
