import type { CompiledContext } from "../../../rdf/contexts/compiled-context";
import { ATTRIBUTE_META_MEMBERS, ATTRIBUTE_VALUE_MEMBER, isAttributeKind } from "../../model/attribute-kinds";
import { canonicalName } from "../../model/canonical-names";
import { Entity, instancesOf } from "../../model/entity";
import { isObject, type AttributeInstance } from "../../model/normalize-attribute";
import { evaluate, mapLeaves } from "../expression";
import type { QExpr, ResolvedPath, ResolvedQ, ResolvedTerm } from "./q-ast";
import { instanceSatisfies } from "./q-compare";

/**
 * Resolves the names of a parsed `q` with the request's @context (ETSI GS CIM 009 v1.8 §4.9: attribute
 * names are terms expanded with the @context in effect), to the canonical names the entities are
 * compacted with (the same machinery as the routes) and to expanded IRIs for the indexes.
 */
export function resolveQ(q: QExpr, ctx: CompiledContext): ResolvedQ {
  return mapLeaves(q, (t) => ({
    op: t.op,
    operand: t.operand,
    path: {
      attr: canonicalName(ctx, t.path.names[0]),
      attrIri: ctx.expandTerm(t.path.names[0]),
      subs: t.path.names.slice(1).map((n) => (ATTRIBUTE_META_MEMBERS.has(n) ? n : canonicalName(ctx, n))),
      keys: t.path.keys.map((k) => ({ raw: k, canonical: canonicalName(ctx, k) })),
    },
  }));
}

/** True if entity `e` (compacted with the context `q` was resolved with) satisfies `q` (§4.9). */
export function matchesQ(e: Entity, q: ResolvedQ): boolean {
  return evaluate(q, (t) => termHolds(e, t));
}

/** True if one query term holds: some instance of the attribute satisfies it (§4.9, §4.5.5). */
export function termHolds(e: Entity, t: ResolvedTerm): boolean {
  for (const inst of instancesOf(e, t.path.attr)) {
    for (const values of targetsAlong(inst, t.path, 0)) {
      if (t.op === undefined || t.operand === undefined) {
        if (values.length > 0 || t.path.keys.length === 0) return true;
      } else if (instanceSatisfies(values, t.op, t.operand)) return true;
    }
  }
  return false;
}

/**
 * The target value lists reached from `inst` by the path's sub-attribute steps from `step` on: one list
 * per final sub-attribute instance (or meta member), after the `[key]` steps (possibly empty).
 */
function* targetsAlong(inst: AttributeInstance, path: ResolvedPath, step: number): Generator<unknown[]> {
  if (step === path.subs.length) {
    yield instanceTargets(inst, path.keys);
    return;
  }
  const name = path.subs[step];
  const member = inst[name];
  if (member === undefined) return;
  if (ATTRIBUTE_META_MEMBERS.has(name)) {
    if (step === path.subs.length - 1 && path.keys.length === 0) yield [member];
    return;
  }
  for (const sub of Array.isArray(member) ? member : [member]) {
    if (isObject(sub) && isAttributeKind(sub.type))
      yield* targetsAlong(sub as AttributeInstance, path, step + 1);
  }
}

/**
 * The values a query term compares against for one attribute instance (§4.9): the value of a Property,
 * the object of a Relationship, the strings of a LanguageProperty (or one language with `[tag]`), the
 * vocab, json or list of the other kinds; then `[key]` steps into it; value objects unwrapped, arrays
 * flattened (a term holds if any element satisfies it).
 */
export function instanceTargets(inst: AttributeInstance, keys: ResolvedPath["keys"] = []): unknown[] {
  let v: unknown = inst[ATTRIBUTE_VALUE_MEMBER[inst.type]];
  let k = 0;
  if (inst.type === "LanguageProperty" && isObject(v)) {
    if (keys.length) v = v[keys[k++].raw];
    else v = Object.values(v);
  }
  for (; k < keys.length && v !== undefined; k++) {
    const key = keys[k];
    v = isObject(v) ? (v[key.raw] ?? v[key.canonical]) : undefined;
  }
  if (v === undefined || v === null) return [];
  const out: unknown[] = [];
  for (const x of Array.isArray(v) ? v : [v]) {
    const u = isObject(x) && "@value" in x ? x["@value"] : x;
    if (u !== undefined && u !== null) out.push(u);
  }
  return out;
}
