import { toAppError } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { BatchOutcome, BatchService } from "../../ngsi-ld/entities/batch-service";
import { canonicalizeEntity } from "../../ngsi-ld/model/canonical-names";
import { normalizeEntity } from "../../ngsi-ld/model/normalize-entity";

/** Compiles an @context value (the NGSI-LD face's context service). */
export type CompileContext = (value: unknown) => Promise<CompiledContext>;

/**
 * Upserts NGSI-LD entity documents (with their @context) through the entity service, in chunks, the way
 * any external feeder's POST /entityOperations/upsert would (ETSI GS CIM 009 §5.6.8): the same validation,
 * the same journal, the same change feed. Returns how many were written and the per-entity errors.
 */
export async function upsertDocuments(
  batch: BatchService,
  compile: CompileContext,
  tenant: string,
  docs: readonly Record<string, unknown>[],
  chunk = 500,
): Promise<{ written: number; errors: string[] }> {
  let written = 0;
  const errors: string[] = [];
  const contexts = new Map<string, CompiledContext>();
  for (let i = 0; i < docs.length; i += chunk) {
    const outcome: BatchOutcome = { created: [], updated: [], errors: [] };
    const items = [];
    for (const doc of docs.slice(i, i + chunk)) {
      const { "@context": c, ...rest } = doc;
      const key = JSON.stringify(c ?? null);
      try {
        let ctx = contexts.get(key);
        if (!ctx) contexts.set(key, (ctx = await compile(c)));
        items.push({ entity: canonicalizeEntity(normalizeEntity(rest, "entity"), ctx), ctx });
      } catch (e) {
        errors.push(`${String(rest.id)}: ${toAppError(e).message}`);
      }
    }
    if (items.length) await batch.write(tenant, "upsert-replace", items, outcome);
    written += outcome.created.length + outcome.updated.length;
    for (const e of outcome.errors) errors.push(`${e.entityId}: ${e.error.message}`);
  }
  return { written, errors };
}
