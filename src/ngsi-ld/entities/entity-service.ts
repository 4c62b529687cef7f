import { AppError, notFound } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { nowIso } from "../model/datetime";
import { attributeNames, Entity, instancesOf, setInstances, typesOf } from "../model/entity";
import { mergeInstance, findInstance, isNgsiLdNull, removeInstance } from "./attribute-merge";
import type { EntityRepository } from "./entity-repository";
import type { ResolvedQ } from "../query/q/q-ast";
import { matchesQ } from "../query/q/q-evaluate";
import { stampInstance, stampNewEntity } from "./timestamps";

/** Which entities a purge touches and how (types expanded, attribute names canonical). */
export interface PurgeSelection {
  types?: string[];
  ids?: string[];
  keep?: string[];
  drop?: string[];
  /** Only entities that satisfy this `q` (§4.9), resolved with the request's context. */
  q?: ResolvedQ;
}

/**
 * Whole-entity operations of the NGSI-LD API (ETSI GS CIM 009 v1.8 §5.6.1 create, §5.6.6 delete,
 * §5.6.17 merge, §5.6.18 replace, §5.7.1 retrieve, §5.6.21 purge). Bodies arrive validated and
 * normalized (src/ngsi-ld/model); every write is durable before the promise resolves.
 */
export class EntityService {
  constructor(readonly repo: EntityRepository) {}

  /** §5.6.1: creates `entity`; 409 AlreadyExists if the id is taken. */
  async create(tenant: string, entity: Entity, ctx: CompiledContext): Promise<void> {
    await this.repo.locks.run(tenant + " " + entity.id, async () => {
      if (this.repo.exists(tenant, entity.id)) {
        throw new AppError("AlreadyExists", `Entity ${entity.id} already exists`, { id: entity.id });
      }
      stampNewEntity(entity, nowIso());
      await this.repo.commit(tenant, "create", ctx, [entity]);
    });
  }

  /** §5.7.1: the stored entity compacted with `ctx`; 404 if absent. */
  async retrieve(tenant: string, id: string, ctx: CompiledContext): Promise<Entity> {
    const e = await this.repo.read(tenant, id, ctx);
    if (!e) throw notFound(`Entity ${id} does not exist`, { id });
    return e;
  }

  /** §5.6.18: replaces every attribute (and the types) of an existing entity. */
  async replace(tenant: string, id: string, entity: Entity, ctx: CompiledContext): Promise<void> {
    await this.repo.locks.run(tenant + " " + id, async () => {
      const old = await this.retrieve(tenant, id, ctx);
      const now = nowIso();
      stampNewEntity(entity, now);
      entity.id = id;
      entity.createdAt = old.createdAt;
      if (typesOf(entity).length === 0) entity.type = old.type;
      await this.repo.commit(tenant, "replace", ctx, [entity], [], new Map([[id, old]]));
    });
  }

  /**
   * §5.6.17: merges `patch` into the entity: present attributes are merged instance by instance,
   * new ones added, instances set to urn:ngsi-ld:null deleted; types are added.
   */
  async merge(tenant: string, id: string, patch: Entity, ctx: CompiledContext): Promise<void> {
    await this.repo.locks.run(tenant + " " + id, async () => {
      const old = await this.retrieve(tenant, id, ctx);
      const next: Entity = structuredClone(old);
      mergeInto(next, patch, nowIso());
      await this.repo.commit(tenant, "merge", ctx, [next], [], new Map([[id, old]]));
    });
  }

  /** §5.6.6: deletes the entity; 404 if absent. */
  async delete(tenant: string, id: string, ctx: CompiledContext): Promise<void> {
    await this.repo.locks.run(tenant + " " + id, async () => {
      const old = await this.retrieve(tenant, id, ctx);
      await this.repo.commit(tenant, "delete", ctx, [], [id], new Map([[id, old]]));
    });
  }

  /**
   * Purge (ETSI GS CIM 009 v1.9 §5.6.21): deletes the selected entities, or with `drop` removes those
   * attributes, or with `keep` removes every other attribute. Returns how many entities were touched.
   */
  async purge(tenant: string, sel: PurgeSelection, ctx: CompiledContext): Promise<number> {
    const wanted = sel.types ? new Set(sel.types) : undefined;
    const idSet = sel.ids ? new Set(sel.ids) : undefined;
    let ids: string[] = [];
    for (const [id, types] of this.repo.index.entries(tenant)) {
      if (wanted && !types.some((t) => wanted.has(t))) continue;
      if (idSet && !idSet.has(id)) continue;
      ids.push(id);
    }
    const chunk = 1000;
    if (sel.q) ids = await this.satisfying(tenant, ids, sel.q, ctx, chunk);
    for (let i = 0; i < ids.length; i += chunk) {
      const part = ids.slice(i, i + chunk);
      await this.repo.locks.runAll(
        part.map((x) => tenant + " " + x),
        async () => {
          if (!sel.keep && !sel.drop) {
            await this.repo.commit(
              tenant,
              "purge",
              ctx,
              [],
              part.filter((x) => this.repo.exists(tenant, x)),
            );
            return;
          }
          const now = nowIso();
          const olds = (await this.repo.readMany(tenant, part, ctx)).filter((e): e is Entity => !!e);
          const next = olds.map((e) => {
            const n = structuredClone(e);
            for (const a of attributeNames(n)) {
              if (sel.drop ? sel.drop.includes(a) : !sel.keep?.includes(a)) delete n[a];
            }
            n.modifiedAt = now;
            return n;
          });
          await this.repo.commit(tenant, "purge", ctx, next);
        },
      );
    }
    return ids.length;
  }

  /** The ids among `ids` whose entity satisfies `q`, read `chunk` at a time. */
  private async satisfying(
    tenant: string,
    ids: string[],
    q: ResolvedQ,
    ctx: CompiledContext,
    chunk: number,
  ): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < ids.length; i += chunk) {
      for (const e of await this.repo.readMany(tenant, ids.slice(i, i + chunk), ctx)) {
        if (e && matchesQ(e, q)) out.push(e.id);
      }
    }
    return out;
  }
}

/** Applies a merge patch (§5.6.17) to `target` in place, stamping what changed with `now`. */
export function mergeInto(target: Entity, patch: Entity, now: string): void {
  if (patch.type !== undefined) {
    const types = [...new Set([...typesOf(target), ...typesOf(patch)])];
    target.type = types.length === 1 ? types[0] : types;
  }
  if (patch.scope !== undefined) target.scope = patch.scope;
  for (const name of attributeNames(patch)) {
    for (const inst of instancesOf(patch, name)) {
      if (isNgsiLdNull(inst)) {
        removeInstance(target, name, inst.datasetId as string | undefined);
        continue;
      }
      const { list, at } = findInstance(target, name, inst.datasetId as string | undefined);
      const merged = at >= 0 ? mergeInstance(list[at], inst) : inst;
      stampInstance(merged, now, at >= 0 ? list[at] : undefined);
      if (at >= 0) list[at] = merged;
      else list.push(merged);
      setInstances(target, name, list);
    }
  }
  target.modifiedAt = now;
}
