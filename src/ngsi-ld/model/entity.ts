import type { AttributeInstance } from "./normalize-attribute";
import { ENTITY_META_MEMBERS } from "./attribute-kinds";

/**
 * An NGSI-LD entity in normalized form with terms compacted by one context (ETSI GS CIM 009 §4.5.1).
 * Attribute members hold one instance or an array of instances (multi-attribute, §4.5.5).
 */
export interface Entity {
  id: string;
  type: string | string[];
  scope?: string | string[];
  createdAt?: string;
  modifiedAt?: string;
  [member: string]: unknown;
}

/** The attribute names of an entity (every member that is not id, type, scope or a system member). */
export function attributeNames(e: Entity): string[] {
  return Object.keys(e).filter((k) => !ENTITY_META_MEMBERS.has(k));
}

/** The instances of attribute `name` (empty if absent). */
export function instancesOf(e: Entity, name: string): AttributeInstance[] {
  const v = e[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]) as AttributeInstance[];
}

/** Stores instances back as one object or an array; removes the attribute when none are left. */
export function setInstances(e: Entity, name: string, instances: AttributeInstance[]): void {
  if (instances.length === 0) delete e[name];
  else e[name] = instances.length === 1 ? instances[0] : instances;
}

/** The entity's types as an array. */
export function typesOf(e: { type?: unknown }): string[] {
  const t = e.type;
  return Array.isArray(t) ? (t as string[]) : typeof t === "string" ? [t] : [];
}

/** The datasetId of an instance, or undefined for the default instance (§4.5.5). */
export function datasetIdOf(i: AttributeInstance): string | undefined {
  return typeof i.datasetId === "string" ? i.datasetId : undefined;
}
