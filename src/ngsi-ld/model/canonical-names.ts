import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { ATTRIBUTE_META_MEMBERS } from "./attribute-kinds";
import { attributeNames, Entity } from "./entity";
import { refuseReserved } from "./reserved";

/**
 * Rewrites the type and attribute names of a request entity (recursively, sub-attributes too) to the
 * form the stored entity compacts to under the same context: expand, then compact. So `speed`,
 * `https://example.org/speed` and `ex:speed` name one attribute when the context says so
 * (JSON-LD 1.1 §4.1 IRI expansion, §4.3 IRI compaction).
 */
export function canonicalizeEntity(e: Entity, ldc: CompiledContext): Entity {
  if (e.type !== undefined) {
    for (const t of Array.isArray(e.type) ? e.type : [e.type])
      refuseReserved(ldc.expandTerm(t), "Entity type");
    e.type = Array.isArray(e.type) ? e.type.map((t) => canon(ldc, t)) : canon(ldc, e.type);
  }
  const names = attributeNames(e);
  for (const name of names) refuseReserved(ldc.expandTerm(name), "Attribute name");
  if (namesStay(e, names, ldc)) {
    // the common case: no attribute is renamed, so none is deleted (a delete turns the entity into a
    // slow "dictionary" object for every later reader: the codec, the indexes, the history)
    for (const name of names) e[name] = canonicalizeSubs(e[name], ldc);
    return e;
  }
  for (const name of names) {
    const value = canonicalizeSubs(e[name], ldc);
    delete e[name];
    e[canon(ldc, name)] = value;
  }
  return e;
}

/**
 * True when renaming in place gives what deleting and re-adding every attribute gives: each name is
 * already canonical and the attributes are the last members (so none would move).
 */
function namesStay(e: Entity, names: string[], ldc: CompiledContext): boolean {
  const keys = Object.keys(e);
  const first = keys.length - names.length;
  for (let i = 0; i < names.length; i++) {
    if (keys[first + i] !== names[i] || canon(ldc, names[i]) !== names[i]) return false;
  }
  return true;
}

function canonicalizeSubs(v: unknown, ldc: CompiledContext): unknown {
  if (Array.isArray(v)) return v.map((x) => canonicalizeSubs(x, ldc));
  if (typeof v !== "object" || v === null) return v;
  const obj = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // Object.keys, not Object.entries: no [key, value] array per member
  // (docs/decisions/0018-small-hot-path-costs.md)
  for (const k of Object.keys(obj)) {
    if (ATTRIBUTE_META_MEMBERS.has(k)) out[k] = obj[k];
    else out[canon(ldc, k)] = canonicalizeSubs(obj[k], ldc);
  }
  return out;
}

/** Expands then compacts a name with `ldc`, so that an IRI and its term name the same thing. */
export function canonicalName(ldc: CompiledContext, name: string): string {
  return ldc.compactIri(ldc.expandTerm(name));
}

const canon = canonicalName;
