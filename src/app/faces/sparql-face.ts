import path from "node:path";
import { faceRouter } from "./face-router";
import { renderProblem } from "../../api/http/faces";
import type { HealthProbe } from "../../api/http/health-routes";
import { registerSparqlRoutes } from "../../api/sparql/sparql-routes";
import type { Config } from "../../config/config";
import { NativeSparql } from "../../store/sparql/native-sparql";
import { AppError } from "../../errors";
import type { Metrics } from "../../observability/metrics";
import type { Face } from "./face";

/**
 * SPARQL 1.1 Protocol at `/sparql`, answered by the native store's engine on threads of its own over
 * snapshots of the one graph (docs/decisions/0019-native-store.md).
 */
export function sparqlFace(config: Config, metrics: Metrics): Face & { health: HealthProbe } {
  const sparql = new NativeSparql({
    storeDir: path.join(config.store.dataDir, "store"),
    timeoutMs: config.sparql.sparqlTimeoutMs,
    maxRunning: config.sparql.sparqlMaxRunning,
  });
  metrics.addSources({ sparqlQueries: () => sparql.load() });
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
    health: () => {
      const { running, waiting } = sparql.load();
      return Promise.resolve({ ok: true, detail: `${running} running, ${waiting} waiting` });
    },
  };
}

/** The engine's queries, each reported to the metrics with its outcome (ok, timeout, error) and duration. */
function timedQueries(engine: NativeSparql, metrics: Metrics): Pick<NativeSparql, "query"> {
  return {
    query: async (q) => {
      const t0 = performance.now();
      try {
        const answer = await engine.query(q);
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
