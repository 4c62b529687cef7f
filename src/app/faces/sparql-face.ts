import Router from "@koa/router";
import { renderProblem } from "../../api/http/faces";
import { registerSparqlRoutes } from "../../api/sparql/sparql-routes";
import type { Config } from "../../config/config";
import type { Logger } from "../../log/logger";
import { SparqlReplica } from "../../store/replica/sparql-replica";
import type { CommitPipeline } from "../../events/commit-pipeline";
import type { Face } from "./face";

/**
 * SPARQL 1.1 Protocol at `/sparql`, answered by a read replica in its own worker that follows the
 * change feed as a derived stage of the commit pipeline.
 */
export function sparqlFace(config: Config, log: Logger, pipeline: CommitPipeline): Face {
  const sparql = new SparqlReplica({
    dataDir: config.dataDir,
    store: pipeline.feed("SPARQL replica"),
    timeoutMs: config.sparqlTimeoutMs,
    eager: config.sparqlReplica === "eager",
    reclaimDroppedQuads: config.storeReclaimQuads,
    heapReduceIntervalMs: config.heapReduceIntervalMs,
    log: (level, msg, fields) => log.log(level, msg, fields),
  });
  const router = new Router();
  registerSparqlRoutes(router, sparql, { maxBodyBytes: config.maxBodyBytes, maxRows: config.sparqlMaxRows });
  return {
    mount: { name: "sparql", prefixes: ["/sparql"], renderError: renderProblem },
    routers: [router],
    close: () => sparql.close(),
  };
}
