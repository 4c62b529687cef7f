import { badRequest, notFound } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { nowIso } from "../model/datetime";
import { attributeNames, datasetIdOf, Entity, instancesOf, setInstances, typesOf } from "../model/entity";
import type { AttributeInstance } from "../model/normalize-attribute";
import { findInstance, isNgsiLdNull, mergeInstance, putInstance, removeInstance } from "./attribute-merge";
import type { EntityRepository } from "./entity-repository";
import { stampInstance } from "./timestamps";

/** UpdateResult (ETSI GS CIM 009 §5.2.18): which attributes were changed and which not, with why. */
export interface UpdateResult {
  updated: string[];
  notUpdated: { attributeName: string; reason: string }[];
}

/**
 * Attribute-level operations (ETSI GS CIM 009 v1.8 §5.6.2 update, §5.6.3 append, §5.6.4 partial
 * update, §5.6.5 delete, §5.6.19 replace attribute). Names arrive compacted with `ctx`.
 */
export class AttributeService {
  constructor(private readonly repo: EntityRepository) {}

  /** §5.6.3: adds the attributes of `fragment`; existing instances are replaced unless `noOverwrite`. */
  append(tenant: string, id: string, fragment: Entity, noOverwrite: boolean, ctx: CompiledContext) {
    return this.change(tenant, id, "append", ctx, (e, now, result) => {
      addTypes(e, fragment);
      if (fragment.scope !== undefined) {
        e.scope = noOverwrite && e.scope !== undefined ? unionOf(e.scope, fragment.scope) : fragment.scope;
        result.updated.push("scope");
      }
      for (const name of attributeNames(fragment)) {
        let changed = false;
        for (const inst of instancesOf(fragment, name)) {
          const { list, at } = findInstance(e, name, datasetIdOf(inst));
          if (at >= 0 && noOverwrite) continue;
          stampInstance(inst, now, at >= 0 ? list[at] : undefined);
          putInstance(e, name, inst);
          changed = true;
        }
        if (changed) result.updated.push(name);
        else
          result.notUpdated.push({ attributeName: name, reason: "attribute exists and noOverwrite was set" });
      }
    });
  }

  /**
   * §5.6.2: replaces the instances of `fragment` that exist and appends those that do not (as the ETSI
   * suite expects: 011_01_03, 046_23..046_41); a scope the entity lacks is not added (011_05_02) and an
   * NGSI-LD null for a missing instance deletes nothing: both are reported as not updated (207).
   */
  update(tenant: string, id: string, fragment: Entity, ctx: CompiledContext) {
    return this.change(tenant, id, "update", ctx, (e, now, result) => {
      addTypes(e, fragment);
      if (fragment.scope !== undefined) {
        if (e.scope === undefined)
          result.notUpdated.push({ attributeName: "scope", reason: "the entity has no scope" });
        else {
          e.scope = fragment.scope;
          result.updated.push("scope");
        }
      }
      for (const name of attributeNames(fragment)) {
        let ok = true;
        for (const inst of instancesOf(fragment, name)) {
          const { list, at } = findInstance(e, name, datasetIdOf(inst));
          if (isNgsiLdNull(inst)) {
            if (at < 0) ok = false;
            else removeInstance(e, name, datasetIdOf(inst));
            continue;
          }
          stampInstance(inst, now, at >= 0 ? list[at] : undefined);
          putInstance(e, name, inst);
        }
        if (ok) result.updated.push(name);
        else
          result.notUpdated.push({
            attributeName: name,
            reason: "NGSI-LD null for an attribute (or datasetId) that does not exist",
          });
      }
    });
  }

  /** §5.6.4: merges `patch` into the existing instance of attribute `name`; 404 if it does not exist. */
  async partialUpdate(
    tenant: string,
    id: string,
    name: string,
    patch: AttributeInstance[],
    ctx: CompiledContext,
    typeless = false,
  ) {
    await this.change(tenant, id, "partialUpdate", ctx, (e, now) => {
      for (const p of patch) {
        const { list, at } = findInstance(e, name, datasetIdOf(p));
        if (at < 0) throw notFound(`Attribute ${name} does not exist in ${id}`, { attribute: name });
        if (isNgsiLdNull(p)) {
          removeInstance(e, name, datasetIdOf(p));
          continue;
        }
        if (typeless) {
          delete p.value;
          p.type = list[at].type;
        }
        if (p.type !== list[at].type) {
          throw badRequest(
            `Attribute ${name} is a ${list[at].type}; a partial update cannot make it a ${p.type}`,
          );
        }
        const merged = mergeInstance(list[at], p);
        stampInstance(merged, now, list[at]);
        putInstance(e, name, merged);
      }
    });
  }

  /** §5.6.19: replaces the instance of attribute `name`; 404 if it does not exist. */
  async replaceAttribute(
    tenant: string,
    id: string,
    name: string,
    insts: AttributeInstance[],
    ctx: CompiledContext,
  ) {
    await this.change(tenant, id, "replaceAttribute", ctx, (e, now) => {
      for (const inst of insts) {
        const { list, at } = findInstance(e, name, datasetIdOf(inst));
        if (at < 0) throw notFound(`Attribute ${name} does not exist in ${id}`, { attribute: name });
        stampInstance(inst, now, list[at]);
        putInstance(e, name, inst);
      }
    });
  }

  /** §5.6.5: deletes the default instance, the one with `datasetId`, or all with `deleteAll`. */
  async deleteAttribute(
    tenant: string,
    id: string,
    name: string,
    opts: { datasetId?: string; deleteAll?: boolean },
    ctx: CompiledContext,
  ): Promise<void> {
    await this.change(tenant, id, "deleteAttribute", ctx, (e) => {
      if (name === "scope" && e.scope !== undefined) {
        delete e.scope;
        return;
      }
      const list = instancesOf(e, name);
      const keep = opts.deleteAll ? [] : list.filter((i) => datasetIdOf(i) !== opts.datasetId);
      if (list.length === 0 || keep.length === list.length) {
        throw notFound(`Attribute ${name} does not exist in ${id}`, { attribute: name });
      }
      setInstances(e, name, keep);
    });
  }

  /** Read-modify-write of one entity under its lock; commits only when something changed. */
  private async change(
    tenant: string,
    id: string,
    operation: string,
    ctx: CompiledContext,
    edit: (e: Entity, now: string, result: UpdateResult) => void,
  ): Promise<UpdateResult> {
    return this.repo.locks.run(tenant + " " + id, async () => {
      const old = await this.repo.read(tenant, id, ctx);
      if (!old) throw notFound(`Entity ${id} does not exist`, { id });
      const next: Entity = structuredClone(old);
      const result: UpdateResult = { updated: [], notUpdated: [] };
      const now = nowIso();
      const unchanged = JSON.stringify(next);
      edit(next, now, result);
      if (JSON.stringify(next) === unchanged) return result;
      next.modifiedAt = now;
      await this.repo.commit(tenant, operation, ctx, [next], [], new Map([[id, old]]));
      return result;
    });
  }
}

/** Adds the fragment's types to the entity's (ETSI GS CIM 009 v1.8 §4.16: an entity may have several types). */
function addTypes(e: Entity, fragment: Entity): void {
  if (fragment.type === undefined) return;
  const types = [...new Set([...typesOf(e), ...typesOf(fragment)])];
  e.type = types.length === 1 ? types[0] : types;
}

/** The union of two scope values, as a string when one is left. */
function unionOf(a: string | string[], b: string | string[]): string | string[] {
  const all = [...new Set([...(Array.isArray(a) ? a : [a]), ...(Array.isArray(b) ? b : [b])])];
  return all.length === 1 ? all[0] : all;
}
