import type { Logger } from "../../log/logger";
import type { BatchService } from "../../ngsi-ld/entities/batch-service";
import { buildSeedEntities } from "../seed";
import { createFeed, loadFeedCameras } from "../feed";
import { CompileContext, upsertDocuments } from "./document-upsert";

/**
 * Loads the HCMC dataset (22 districts, 701 cameras) into an EMPTY default tenant through the entity
 * service (issue 6 item 2; `SEED=off` skips it). Logs progress and timing.
 */
export async function seedIfEmpty(
  batch: BatchService,
  compile: CompileContext,
  isEmpty: boolean,
  log: Logger,
): Promise<void> {
  if (!isEmpty) {
    log.info("seed skipped: the store already holds entities");
    return;
  }
  const t0 = Date.now();
  const { districts, cameras } = buildSeedEntities();
  const d = await upsertDocuments(batch, compile, "", districts as unknown as Record<string, unknown>[]);
  const c = await upsertDocuments(batch, compile, "", cameras as unknown as Record<string, unknown>[]);
  const errors = [...d.errors, ...c.errors];
  if (errors.length) log.warn("seed entities refused", { count: errors.length, first: errors.slice(0, 3) });
  log.info("HCMC dataset loaded", { districts: d.written, cameras: c.written, ms: Date.now() - t0 });
}

/**
 * Starts the live feed (issue 6 item 3; `FEED=off` turns it off): every `intervalMs` it upserts the
 * feed's observations through the entity service. Returns a stop function.
 */
export function startFeed(
  batch: BatchService,
  compile: CompileContext,
  log: Logger,
  intervalMs = 60_000,
  seed = 20261121,
): () => void {
  const feed = createFeed({ seed, cameras: loadFeedCameras(), startTime: new Date() });
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const docs = feed.tick(new Date()) as unknown as Record<string, unknown>[];
      const r = await upsertDocuments(batch, compile, "", docs);
      log.debug("feed tick", { written: r.written, errors: r.errors.length });
      if (r.errors.length) log.warn("feed documents refused", { first: r.errors.slice(0, 3) });
    } catch (e) {
      log.error("feed tick failed", { error: String(e) });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
