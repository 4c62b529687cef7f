import { ATTRIBUTE_META_MEMBERS } from "../model/attribute-kinds";
import { datasetIdOf, instancesOf, Entity, setInstances } from "../model/entity";
import type { AttributeInstance } from "../model/normalize-attribute";

import { NGSI_LD_NULL } from "../model/normalize-attribute";
export { NGSI_LD_NULL };

/** True if a raw request value is the NGSI-LD null (bare, or as the value/object of an attribute). */
export function isNgsiLdNull(raw: unknown): boolean {
  if (raw === NGSI_LD_NULL) return true;
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    const lm = o.languageMap as Record<string, unknown> | undefined;
    return (
      o.value === NGSI_LD_NULL ||
      o.object === NGSI_LD_NULL ||
      o.vocab === NGSI_LD_NULL ||
      o.json === NGSI_LD_NULL ||
      (typeof lm === "object" && lm !== null && lm["@none"] === NGSI_LD_NULL)
    );
  }
  return false;
}

/**
 * Merges a patch instance into an existing one (§5.6.4 partial attribute update, §5.6.17 merge):
 * members of the patch replace those of the target; sub-attributes are merged recursively; a sub-attribute
 * set to the NGSI-LD null is removed. A patch of another kind replaces the value member wholesale.
 */
export function mergeInstance(target: AttributeInstance, patch: AttributeInstance): AttributeInstance {
  const out: AttributeInstance = target.type === patch.type ? { ...target } : { ...patch };
  for (const [k, v] of Object.entries(patch)) {
    if (ATTRIBUTE_META_MEMBERS.has(k)) {
      out[k] = v;
      continue;
    }
    if (isNgsiLdNull(v)) {
      delete out[k];
      continue;
    }
    const old = out[k];
    const isInst = (x: unknown): x is AttributeInstance =>
      typeof x === "object" && x !== null && !Array.isArray(x);
    out[k] = isInst(old) && isInst(v) ? mergeInstance(old, v) : v;
  }
  return out;
}

/** The instance of attribute `name` with `datasetId` (undefined = default instance), and its position. */
export function findInstance(
  e: Entity,
  name: string,
  datasetId: string | undefined,
): { list: AttributeInstance[]; at: number } {
  const list = instancesOf(e, name);
  return { list, at: list.findIndex((i) => datasetIdOf(i) === datasetId) };
}

/** Puts `inst` into attribute `name`, replacing the instance with the same datasetId if there is one. */
export function putInstance(e: Entity, name: string, inst: AttributeInstance): void {
  const { list, at } = findInstance(e, name, datasetIdOf(inst));
  if (at >= 0) list[at] = inst;
  else list.push(inst);
  setInstances(e, name, list);
}

/** Removes the instance of attribute `name` with `datasetId`; true if there was one. */
export function removeInstance(e: Entity, name: string, datasetId: string | undefined): boolean {
  const { list, at } = findInstance(e, name, datasetId);
  if (at < 0) return false;
  list.splice(at, 1);
  setInstances(e, name, list);
  return true;
}
