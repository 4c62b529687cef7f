import { attributeNames, instancesOf, Entity, setInstances } from "../model/entity";
import type { AttributeInstance } from "../model/normalize-attribute";

/**
 * Sets the system attributes of an attribute instance (ETSI GS CIM 009 §4.8): `createdAt` is kept
 * from the instance it replaces, `modifiedAt` is `now`.
 */
export function stampInstance(inst: AttributeInstance, now: string, previous?: AttributeInstance): void {
  inst.createdAt = (previous?.createdAt as string | undefined) ?? now;
  inst.modifiedAt = now;
}

/** Stamps a whole new entity: every attribute instance and the entity itself get createdAt = modifiedAt = now. */
export function stampNewEntity(e: Entity, now: string): void {
  e.createdAt = now;
  e.modifiedAt = now;
  for (const name of attributeNames(e)) {
    const list = instancesOf(e, name);
    for (const i of list) stampInstance(i, now);
    setInstances(e, name, list);
  }
}
