import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { UserPattern } from "./user-pattern";
import { Entity, instancesOf, typesOf } from "../model/entity";
import { matchesGeoQuery, type GeoQuery } from "./geo";
import { evaluate3, FALSE, MAYBE, requiredLeaves, Tri, TRUE } from "./expression";
import type { TenantAttributeIndex } from "./index/attribute-index";
import type { ResolvedQ, ResolvedTerm } from "./q/q-ast";
import { instanceSatisfies, valueSatisfies } from "./q/q-compare";
import { matchesQ } from "./q/q-evaluate";
import { matchesScopeQuery, ScopeQuery, scopesOf } from "./scope-query";
import { matchesTypes, TypeExpr } from "./type-expression";

/** One entity selector (ETSI GS CIM 009 v1.8 §5.2.33 EntitySelector; GET's `id`/`idPattern`/`type`). */
export interface EntitySelector {
  ids?: string[];
  idPattern?: UserPattern;
  types?: TypeExpr;
}

/** The filter part of an entity query (§5.7.2): what an entity must satisfy to be in the answer. */
export interface EntityFilter {
  /** Alternatives (an entity matches if it matches any); undefined = every entity. */
  selectors?: EntitySelector[];
  /** `attrs`: the entity has at least one of these; canonical names and expanded IRIs, same order. */
  attrs?: { names: string[]; iris: string[] };
  q?: ResolvedQ;
  scopeQ?: ScopeQuery;
  /** A geo-query (§4.10). */
  geo?: GeoQuery;
}

function selectorMatches(s: EntitySelector, id: string, types: readonly string[]): boolean {
  if (s.ids && !s.ids.includes(id)) return false;
  if (s.idPattern && !s.idPattern.test(id)) return false;
  return !s.types || matchesTypes(s.types, types);
}

function anySelectorMatches(selectors: EntitySelector[], id: string, types: readonly string[]): boolean {
  for (const s of selectors) if (selectorMatches(s, id, types)) return true;
  return false;
}

/**
 * The exact check on an entity compacted with the request's context `ctx`: the truth the indexes are
 * held against.
 */
export function matchesFilter(f: EntityFilter, e: Entity, ctx: CompiledContext): boolean {
  const types = typesOf(e).map((t) => ctx.expandTerm(t));
  if (f.selectors && !anySelectorMatches(f.selectors, e.id, types)) return false;
  if (f.attrs && !f.attrs.names.some((n) => n in e)) return false;
  if (f.scopeQ && !matchesScopeQuery(f.scopeQ, scopesOf(e.scope))) return false;
  if (f.q && !matchesQ(e, f.q)) return false;
  if (!f.geo) return true;
  const g = f.geo;
  return instancesOf(e, g.geoproperty).some((i) => i.type === "GeoProperty" && matchesGeoQuery(i.value, g));
}

/**
 * The index's answer for entity `id` (§4.9 semantics on the indexed values; `geoIds` = the geo index's
 * exact answer to `f.geo`): FALSE when it surely does not match, TRUE when it surely does, MAYBE when
 * only the entity itself can tell.
 */
export function indexedMatch(
  f: EntityFilter,
  t: TenantAttributeIndex,
  id: string,
  geoIds?: ReadonlySet<string>,
): Tri {
  const entry = t.entities.get(id);
  if (!entry) return FALSE;
  if (f.selectors && !anySelectorMatches(f.selectors, id, entry.types)) return FALSE;
  if (f.attrs && !f.attrs.iris.some((a) => t.attrs.get(a)?.has(id))) return FALSE;
  if (f.scopeQ && !matchesScopeQuery(f.scopeQ, entry.scopes)) return FALSE;
  if (geoIds && !geoIds.has(id)) return FALSE;
  if (!f.q) return TRUE;
  probe.t = t;
  probe.id = id;
  const r = evaluate3(f.q, probeTerm);
  probe.t = undefined;
  return r;
}

// The entity evaluate3 asks about, set just before the (synchronous) call: one leaf test for every
// candidate instead of a closure allocated per candidate (this runs for hundreds per request).
const probe: { t: TenantAttributeIndex | undefined; id: string } = { t: undefined, id: "" };
const probeTerm = (term: ResolvedTerm): Tri => (probe.t ? indexedTerm(probe.t, probe.id, term) : MAYBE);

function indexedTerm(t: TenantAttributeIndex, id: string, term: ResolvedTerm): Tri {
  const slot = t.attrs.get(term.path.attrIri)?.get(id);
  if (slot === undefined) return FALSE;
  const deep = term.path.subs.length > 0 || term.path.keys.length > 0;
  if (term.op === undefined || term.operand === undefined) return deep ? MAYBE : TRUE;
  const { op, operand } = term;
  if (deep) return MAYBE;
  if (typeof slot !== "object") return valueSatisfies(slot, op, operand) ? TRUE : FALSE;
  if (!slot.exact) return MAYBE;
  for (const v of slot.instances) if (instanceSatisfies(v, op, operand)) return TRUE;
  return FALSE;
}

/** Attribute IRIs every match must have (from `q` terms reached through `;` only). */
export function requiredAttributes(f: EntityFilter): string[] {
  return f.q ? requiredLeaves(f.q).map((t) => t.path.attrIri) : [];
}
