import { badRequest } from "../../errors";
import { isValidName } from "../model/uri";
import { ENTITY_META_MEMBERS } from "../model/attribute-kinds";
import type { Entity } from "../model/entity";
import { normalizeAttribute, type AttributeInstance } from "../model/normalize-attribute";
import { normalizeEntity, type EntityBodyKind } from "../model/normalize-entity";

/**
 * Validates a temporal entity body (ETSI GS CIM 009 v1.8 §5.6.11 create/update, §5.6.12 append; the
 * temporal representation §4.5.9): id, type and scope as for an entity, and each attribute an instance or
 * an array of instances, each validated alone (unlike an entity, several instances of one datasetId are
 * the point: they are its history). Returns the entity with every attribute as an array. 400 on a wrong
 * shape, naming the attribute: nothing of such a body is stored.
 */
export function normalizeTemporalEntity(body: Record<string, unknown>, kind: EntityBodyKind): Entity {
  const head: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (ENTITY_META_MEMBERS.has(k)) head[k] = v;
  const out = normalizeEntity(head, kind);
  for (const [name, raw] of Object.entries(body)) {
    if (ENTITY_META_MEMBERS.has(name)) continue;
    if (!isValidName(name) || name.startsWith("@")) {
      throw badRequest(`Attribute name ${JSON.stringify(name)} is not valid`, { name });
    }
    const list: AttributeInstance[] = [];
    for (const x of Array.isArray(raw) ? raw : [raw]) list.push(...normalizeAttribute(name, x));
    checkObserved(name, list);
    out[name] = list;
  }
  return out;
}

/**
 * The temporal API writes observations: an instance without `observedAt` would be stored where the
 * default temporal query (timeproperty observedAt, §4.11) never shows it, so it is refused, as is an
 * attribute given with no instance at all, rather than answered 201 with data out of sight.
 */
function checkObserved(name: string, list: AttributeInstance[]): void {
  if (list.length === 0)
    throw badRequest(`Attribute ${name} has no instance`, { attribute: name, instances: 0 });
  const at = list.findIndex((i) => i.observedAt === undefined);
  if (at >= 0) {
    throw badRequest(
      `Attribute ${name}: instance ${at} has no observedAt; the temporal API records each instance at its observedAt`,
      { attribute: name, instance: at },
    );
  }
}
