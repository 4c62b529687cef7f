import path from "node:path";
import type { Config } from "../config/config";
import type { Logger } from "../log/logger";
import { noMetrics, type Metrics } from "../observability/metrics";
import { TemporalService } from "../ngsi-ld/temporal/temporal-service";
import type { GraphStore } from "../store/graph-store";
import { openGraphStore } from "../store/open-store";

/** The graph store and the temporal history, opened together. */
export interface Storage {
  store: GraphStore;
  temporal: TemporalService;
  close(): Promise<void>;
}

/**
 * Opens the store (worker thread, journal, snapshots) and, while its worker recovers, reads the
 * temporal history from its own log on this thread; once the store is open, the history is cut back to
 * the commits the store recovered (TemporalService.alignTo) and seals into the graph. A failed start
 * closes what it opened.
 */
export async function openStorage(
  config: Config,
  log: Logger,
  metrics: Metrics = noMetrics,
): Promise<Storage> {
  const logTo = (level: Parameters<Logger["log"]>[0], msg: string, fields?: object) =>
    log.log(level, msg, fields);
  const opening = openGraphStore({
    dataDir: config.store.dataDir,
    minFreeBytes: config.store.minFreeBytes,
    journalCompactBytes: config.store.journalCompactBytes,
    compactQuietMs: config.tuning.journalCompactQuietMs,
    journalCompactMaxBytes: config.store.journalCompactMaxBytes,
    heapReduceIntervalMs: config.tuning.heapReduceIntervalMs,
    onCommitted: metrics === noMetrics ? undefined : (s) => metrics.commit(s),
    log: logTo,
  });
  let temporal: TemporalService;
  try {
    temporal = TemporalService.open({
      dir: path.join(config.store.dataDir, "history"),
      retention: {
        rawMs: config.temporal.temporalRawRetentionMs,
        hourlyMs: config.temporal.temporalHourlyRetentionMs,
        totalMs: config.temporal.temporalRetentionMs,
      },
      retentionEveryMs: config.temporal.temporalRetentionIntervalMs,
      compactBytes: Math.min(config.store.journalCompactBytes, 128 * 1024 * 1024),
      sealEveryMs: config.temporal.temporalSealMs,
      sealQuietMs: config.tuning.temporalSealQuietMs,
      sealMaxDeferMs: config.tuning.temporalSealMaxDeferMs,
      log: logTo,
    });
  } catch (e) {
    opening.then(
      (s) => s.close(),
      () => undefined,
    );
    throw e;
  }
  const store = await opening.catch(async (e: unknown) => {
    await temporal.close();
    throw e;
  });
  try {
    // a journal recovered to an earlier commit than the history last saw: the history follows the store
    await temporal.alignTo((await store.stats()).lastSeq);
  } catch (e) {
    await temporal.close();
    await store.close();
    throw e;
  }
  temporal.attachGraph(store);
  return {
    store,
    temporal,
    close: async () => {
      await temporal.close();
      await store.close();
    },
  };
}
