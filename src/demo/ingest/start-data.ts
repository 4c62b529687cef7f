import type { Logger } from "../../log/logger";
import type { BatchService } from "../../ngsi-ld/entities/batch-service";
import { buildSeedEntities } from "../seed";
import { CompileContext, upsertDocuments } from "./document-upsert";

/**
 * Loads the HCMC dataset (22 districts, 701 cameras) into an EMPTY default tenant through the entity
 * service (`SEED=off` skips it). Logs progress and timing.
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
