import "./runtime/v8-flags"; // first: V8 flags apply to everything loaded after
import { startApp } from "./app/start-app";
import { ConfigError, loadConfig } from "./config/config";
import { createLogger } from "./log/logger";
import { tuneHeap } from "./runtime/heap-tuning";
import { startMallocTrim } from "./runtime/malloc-trim";
import { startThreadHeapReduce, watchRequests } from "./runtime/heap-reduce";

/**
 * Process entry (docs/design.md "Layout"): reads the configuration, starts the service, and stops it
 * gracefully on SIGTERM/SIGINT (docs/operations.md "Restart and upgrade": not ready at once, new requests
 * 503, in-flight ones finish within SHUTDOWN_GRACE_MS, the journal synced), then exits 0.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`citygraph: configuration error: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const log = createLogger(config.server.logLevel);
  tuneHeap(config.tuning.heapGrowingPercent);
  startMallocTrim(config.tuning.mallocTrimIntervalMs, log);
  const requests: { quiet?: () => boolean } = {}; // set once the server listens
  const reducing = startThreadHeapReduce(
    config.tuning.heapReduceIntervalMs,
    (f) => log.debug("heap reduce", f),
    () => requests.quiet?.() ?? false,
  );
  if (typeof reducing === "string" && config.tuning.heapReduceIntervalMs > 0)
    log.info("heap reduce unavailable: idle threads keep their grown heap", { reason: reducing });
  const app = await startApp(config, log);
  requests.quiet = watchRequests(app.server);
  let stopping = false;
  for (const sig of ["SIGTERM", "SIGINT"] as const) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      log.info("shutting down", { signal: sig });
      // past the grace, whatever still holds the stop up (a stuck worker) must not keep the process
      const force = setTimeout(() => process.exit(1), config.operations.shutdownGraceMs + 15_000);
      force.unref();
      app.shutdown().then(
        () => process.exit(0),
        (err: unknown) => {
          log.error("shutdown failed", { error: String(err) });
          process.exit(1);
        },
      );
    });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`citygraph: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
