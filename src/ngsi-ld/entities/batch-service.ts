import { AppError, toAppError } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { nowIso } from "../model/datetime";
import { attributeNames, Entity, instancesOf, typesOf } from "../model/entity";
import { findInstance, putInstance } from "./attribute-merge";
import { mergeInto } from "./entity-service";
import type { EntityRepository } from "./entity-repository";
import { stampInstance, stampNewEntity } from "./timestamps";

/** One entity of a batch, validated and normalized, with the context it is to be stored under. */
export interface BatchItem {
  entity: Entity;
  ctx: CompiledContext;
}

/** Per-entity outcome of a batch operation (ETSI GS CIM 009 §5.2.16 BatchOperationResult). */
export interface BatchOutcome {
  created: string[];
  updated: string[];
  errors: { entityId: string; error: AppError }[];
}

/** The batch operations: how each one treats an entity that does (not) exist. */
export type BatchMode =
  "create" | "upsert-replace" | "upsert-update" | "update" | "update-noOverwrite" | "merge";

/**
 * Batch entity operations (ETSI GS CIM 009 v1.8 §5.6.7 create, §5.6.8 upsert, §5.6.9 update,
 * §5.6.10 delete, §5.6.20 merge). All entities that succeed are written in ONE atomic, durable
 * store commit; each failure is reported per entity and stores nothing for that entity.
 */
export class BatchService {
  constructor(private readonly repo: EntityRepository) {}

  /** Runs create / upsert / update / merge over `items`; `invalid` are errors found while validating. */
  async write(
    tenant: string,
    mode: BatchMode,
    items: BatchItem[],
    outcome: BatchOutcome,
  ): Promise<BatchOutcome> {
    const keys = items.map((i) => tenant + " " + i.entity.id);
    await this.repo.locks.runAll(keys, async () => {
      const ids = [...new Set(items.map((i) => i.entity.id))];
      const current = new Map<string, Entity>();
      const existing = ids.filter((id) => this.repo.exists(tenant, id));
      const olds = existing.length ? await this.repo.readMany(tenant, existing, items[0].ctx) : [];
      existing.forEach((id, k) => olds[k] && current.set(id, olds[k] as Entity));
      const before = new Map(current);
      const touched = new Map<string, { e: Entity; created: boolean }>();
      const now = nowIso();
      const kept = new Set<string>();
      for (const item of items) {
        const id = item.entity.id;
        try {
          const prev = touched.get(id)?.e ?? current.get(id);
          const skipped: string[] = [];
          const next = applyMode(mode, prev, item.entity, now, skipped);
          touched.set(id, { e: next, created: touched.get(id)?.created ?? !current.has(id) });
          if (skipped.length) {
            kept.add(id);
            outcome.errors.push({
              entityId: id,
              error: new AppError("BadRequestData", `Not overwritten (noOverwrite): ${skipped.join(", ")}`),
            });
          }
        } catch (err) {
          outcome.errors.push({ entityId: id, error: toAppError(err) });
        }
      }
      const save = [...touched.values()].map((t) => t.e);
      if (save.length) {
        await this.repo.commit(tenant, "batch-" + mode, items[0].ctx, save, [], before);
      }
      for (const [id, t] of touched)
        if (!kept.has(id)) (t.created ? outcome.created : outcome.updated).push(id);
    });
    return outcome;
  }

  /** §5.6.10: deletes the entities with `ids`; unknown ids are reported as errors. */
  async delete(
    tenant: string,
    ids: string[],
    ctx: CompiledContext,
    outcome: BatchOutcome,
  ): Promise<BatchOutcome> {
    await this.repo.locks.runAll(
      ids.map((id) => tenant + " " + id),
      async () => {
        const gone = new Set<string>();
        for (const id of ids) {
          if (!this.repo.exists(tenant, id) || gone.has(id)) {
            outcome.errors.push({
              entityId: id,
              error: new AppError("ResourceNotFound", `Entity ${id} does not exist`),
            });
          } else gone.add(id);
        }
        if (gone.size) await this.repo.commit(tenant, "batch-delete", ctx, [], [...gone]);
        outcome.updated.push(...gone);
      },
    );
    return outcome;
  }
}

/**
 * The new state of one entity under `mode`, given its previous state (undefined if it does not exist).
 * Takes `input` over: it is stamped and its instances are moved into the result, not copied (each batch
 * element is a fresh object parsed from the body and used once; a structuredClone of it cost the batch
 * upsert main-thread time and GC: docs/decisions/0001-write-path.md).
 */
function applyMode(
  mode: BatchMode,
  prev: Entity | undefined,
  input: Entity,
  now: string,
  skipped: string[],
): Entity {
  const entity = input;
  if (!prev) {
    if (mode === "update" || mode === "update-noOverwrite" || mode === "merge") {
      throw new AppError("ResourceNotFound", `Entity ${input.id} does not exist`);
    }
    stampNewEntity(entity, now);
    return entity;
  }
  switch (mode) {
    case "create":
      throw new AppError("AlreadyExists", `Entity ${input.id} already exists`);
    case "upsert-replace":
      stampNewEntity(entity, now);
      entity.createdAt = prev.createdAt;
      return entity;
    case "merge": {
      const next = structuredClone(prev);
      mergeInto(next, entity, now);
      return next;
    }
    default: {
      const next = structuredClone(prev);
      const types = [...new Set([...typesOf(prev), ...typesOf(entity)])];
      next.type = types.length === 1 ? types[0] : types;
      for (const name of attributeNames(entity)) {
        for (const inst of instancesOf(entity, name)) {
          const { list, at } = findInstance(next, name, inst.datasetId as string | undefined);
          if (at >= 0 && mode === "update-noOverwrite") {
            skipped.push(name);
            continue;
          }
          stampInstance(inst, now, at >= 0 ? list[at] : undefined);
          putInstance(next, name, inst);
        }
      }
      next.modifiedAt = now;
      return next;
    }
  }
}
