import type { Entity } from "../../../ngsi-ld/model/entity";
import type { CompiledContext } from "../../../rdf/contexts/compiled-context";

const META = new Set(["id", "type", "scope", "createdAt", "modifiedAt", "@context"]);

/**
 * An entity with its attribute names and types in the traffic context's terms, whatever context it
 * was written with: the change feed hands out entities compacted with the writer's context, and the
 * read models look attributes up by the traffic terms (`status`, `severity`, ...).
 */
export function inTrafficTerms(e: Entity, from: CompiledContext, traffic: CompiledContext): Entity {
  if (from.key === traffic.key) return e;
  const out: Entity = { id: e.id, type: e.type };
  if (e.createdAt !== undefined) out.createdAt = e.createdAt;
  if (e.modifiedAt !== undefined) out.modifiedAt = e.modifiedAt;
  const types = Array.isArray(e.type) ? e.type : [e.type];
  const mapped = types.map((t) => traffic.compactIri(from.expandTerm(String(t))));
  out.type = mapped.length === 1 ? mapped[0] : mapped;
  for (const k of Object.keys(e)) {
    if (META.has(k)) continue;
    out[traffic.compactIri(from.expandTerm(k))] = e[k];
  }
  return out;
}

/** The entity's types as an array. */
export function typeList(e: Entity): string[] {
  return Array.isArray(e.type) ? (e.type as string[]) : [String(e.type)];
}

/** The default instance of attribute `name` (the first one without a datasetId), or undefined. */
function instance(e: Entity, name: string): Record<string, unknown> | undefined {
  const v = e[name];
  if (v === undefined || v === null) return undefined;
  const list = (Array.isArray(v) ? v : [v]) as Record<string, unknown>[];
  return list.find((i) => i.datasetId === undefined) ?? list[0];
}

/** The value of Property `name` (a DateTime stays an object; see {@link timeOf}). */
export function valueOf(e: Entity, name: string): unknown {
  const i = instance(e, name);
  if (!i) return undefined;
  return i.value;
}

/** observedAt of attribute `name` in epoch ms, or undefined. */
export function observedAtOf(e: Entity, name: string): number | undefined {
  const t = instance(e, name)?.observedAt;
  return typeof t === "string" ? Date.parse(t) : undefined;
}

/** A string Property. */
export function text(e: Entity, name: string): string | undefined {
  const v = valueOf(e, name);
  return typeof v === "string" ? v : undefined;
}

/** A numeric Property (non-finite values count as absent). */
export function num(e: Entity, name: string): number | undefined {
  const v = valueOf(e, name);
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** A DateTime (or ISO string) Property in epoch ms. */
export function timeOf(e: Entity, name: string): number | undefined {
  let v = valueOf(e, name);
  if (typeof v === "object" && v !== null && "@value" in v) v = (v as { "@value": unknown })["@value"];
  if (typeof v !== "string") return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** The object(s) of Relationship `name`. */
export function objects(e: Entity, name: string): string[] {
  const o = instance(e, name)?.object;
  if (typeof o === "string") return [o];
  return Array.isArray(o) ? o.filter((x): x is string => typeof x === "string") : [];
}

/** A string list Property (a single string counts as a list of one). */
export function texts(e: Entity, name: string): string[] {
  const v = valueOf(e, name);
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** The GeoJSON geometry of GeoProperty `name` (default `location`). */
export function geometry(e: Entity, name = "location"): { type: string; coordinates: unknown } | undefined {
  const v = valueOf(e, name);
  if (typeof v !== "object" || v === null) return undefined;
  const g = v as { type?: unknown; coordinates?: unknown };
  return typeof g.type === "string" ? { type: g.type, coordinates: g.coordinates } : undefined;
}

/** The local part of an NGSI-LD URN: urn:ngsi-ld:Type:<local> -> <local>. */
export function localId(urn: string): string {
  const m = /^urn:ngsi-ld:[^:]+:(.+)$/.exec(urn);
  return m ? m[1] : urn;
}
