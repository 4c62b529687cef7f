import Router from "@koa/router";
import { renderProblem } from "../../api/http/faces";
import type { HealthProbe } from "../../api/http/health-routes";
import { registerSparqlRoutes } from "../../api/sparql/sparql-routes";
import type { Config } from "../../config/config";
import type { Logger } from "../../log/logger";
import { SparqlReplica } from "../../store/replica/sparql-replica";
import { SparqlReplicaPool } from "../../store/replica/replica-pool";
import type { CommitPipeline } from "../../events/commit-pipeline";
import type { Face } from "./face";

/**
 * SPARQL 1.1 Protocol at `/sparql`, answered by read replicas (SPARQL_REPLICAS) in workers of their own that
 * follow the change feed as derived stages of the commit pipeline.
 */
export function sparqlFace(
  config: Config,
  log: Logger,
  pipeline: CommitPipeline,
): Face & { health: HealthProbe } {
  const replica = (n: number) =>
    new SparqlReplica({
      dataDir: config.store.dataDir,
      store: pipeline.feed(n === 0 ? "SPARQL replica" : `SPARQL replica ${n + 1}`),
      timeoutMs: config.sparql.sparqlTimeoutMs,
      eager: config.sparql.sparqlReplica === "eager",
      reclaimDroppedQuads: config.tuning.storeReclaimQuads,
      heapReduceIntervalMs: config.tuning.heapReduceIntervalMs,
      log: (level, msg, fields) => log.log(level, msg, fields),
    });
  const sparql = new SparqlReplicaPool(
    Array.from({ length: config.sparql.sparqlReplicas }, (_, n) => replica(n)),
  );
  const router = new Router();
  registerSparqlRoutes(router, sparql, {
    maxBodyBytes: config.server.maxBodyBytes,
    maxRows: config.sparql.sparqlMaxRows,
    bodyTimeoutMs: config.server.bodyReadTimeoutMs,
    maxQueryLength: config.sparql.sparqlMaxQueryLength,
  });
  return {
    mount: { name: "sparql", prefixes: ["/sparql"], renderError: renderProblem },
    routers: [router],
    close: () => sparql.close(),
    // never unhealthy: a replica not loaded yet loads on the first query
    health: () => Promise.resolve({ ok: true, detail: sparql.describe() }),
  };
}
