import path from "node:path";
import type { Config } from "../config/config";
import type { Logger } from "../log/logger";
import { TemporalService } from "../ngsi-ld/temporal/temporal-service";
import { HISTORY_GRAPH_PREFIX, type GraphStore } from "../store/graph-store";
import { openGraphStore } from "../store/open-store";

/** The graph store and the temporal history, opened together. */
export interface Storage {
  store: GraphStore;
  temporal: TemporalService;
  close(): Promise<void>;
}

/**
 * Opens the store (worker thread, journal, snapshots) and, while its worker recovers, reads the
 * temporal history from its own log on this thread; the history seals into the graph once the store
 * is open. A failed start closes what it opened.
 */
export async function openStorage(config: Config, log: Logger): Promise<Storage> {
  const logTo = (level: Parameters<Logger["log"]>[0], msg: string, fields?: object) =>
    log.log(level, msg, fields);
  const opening = openGraphStore({
    dataDir: config.dataDir,
    maxQuads: config.maxQuads,
    journalCompactBytes: config.journalCompactBytes,
    compactQuietMs: config.journalCompactQuietMs,
    journalCompactMaxBytes: config.journalCompactMaxBytes,
    reclaimDroppedQuads: config.storeReclaimQuads,
    // history segments are read by SPARQL only, i.e. by the replica: journaled, never in the store's memory
    diskOnlyGraphPrefixes: [HISTORY_GRAPH_PREFIX],
    heapReduceIntervalMs: config.heapReduceIntervalMs,
    log: logTo,
  });
  let temporal: TemporalService;
  try {
    temporal = TemporalService.open({
      dir: path.join(config.dataDir, "history"),
      retentionMs: config.temporalRetentionMs,
      compactBytes: Math.min(config.journalCompactBytes, 128 * 1024 * 1024),
      sealEveryMs: config.temporalSealMs,
      sealQuietMs: config.temporalSealQuietMs,
      sealMaxDeferMs: config.temporalSealMaxDeferMs,
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
