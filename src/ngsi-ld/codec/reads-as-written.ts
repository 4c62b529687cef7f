import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { RDF_JSON, XSD_BOOLEAN, XSD_DOUBLE, XSD_INTEGER } from "../../rdf/vocab";
import { ATTRIBUTE_META_MEMBERS, ENTITY_META_MEMBERS } from "../model/attribute-kinds";
import type { NgsiEntity } from "./types";

/** Datatypes whose literals come back from the graph as native JSON values (literals.ts nativeFromLexical). */
const NATIVE_TYPES: ReadonlySet<string> = new Set([XSD_INTEGER, XSD_DOUBLE, XSD_BOOLEAN, RDF_JSON, "@json"]);

type Obj = { [k: string]: unknown };

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * True when what the derived indexes read of `entity` (normalized, compacted with `ctx`) is what they
 * would read of the graph the codec writes for it, decoded again (docs/design.md "Indexes beside the store,
 * derived from it"; docs/architecture.md "A write, end to end" step 6): the id, the types, the scopes,
 * each attribute's expanded name, its instances' kinds (attribute-facts.ts), and the values the attribute
 * index keeps for the q evaluator (ETSI GS CIM 009 v1.8 §4.9) come back from the graph unchanged. Then
 * the change feed hands the entity itself to the indexes instead of the N-Triples to parse.
 *
 * Conservative: false (decode the graph) for anything the codec's round trip may change, namely a term
 * with type coercion or a container, keyword aliases, an id or Relationship object a context prefix
 * would expand, two names of one IRI, typed value objects whose datatype the reader turns native
 * ("5"^^xsd:integer comes back as 5), nested arrays (flattened by JSON-LD expansion), and language maps
 * holding arrays or non-strings. test/integration/ngsi-ld/query-model.test.ts holds both readings equal.
 */
export function readsAsWritten(entity: NgsiEntity, ctx: CompiledContext): boolean {
  if (!keepsIri(entity.id, ctx) || !plainTerm(ctx, "scope")) return false;
  const iris = new Set<string>();
  for (const name of Object.keys(entity)) {
    if (ENTITY_META_MEMBERS.has(name)) continue;
    if (!plainTerm(ctx, name)) return false;
    const iri = ctx.expandTerm(name);
    if (iri.charCodeAt(0) === 64 || !iri.includes(":") || iris.has(iri)) return false;
    iris.add(iri);
    const v = entity[name];
    for (const inst of Array.isArray(v) ? v : [v]) if (!plainInstance(inst, ctx)) return false;
  }
  return true;
}

/** A term without type coercion or container (the codec writes its value as a node or plain literals). */
function plainTerm(ctx: CompiledContext, term: string): boolean {
  const def = ctx.definition(term);
  return def === undefined || (def.coerce === undefined && def.container === undefined);
}

/** An IRI that expanding as an `@id` value leaves as it is (no context prefix matches its scheme). */
function keepsIri(iri: unknown, ctx: CompiledContext): boolean {
  if (typeof iri !== "string") return false;
  const colon = iri.indexOf(":");
  return colon > 0 && ctx.definition(iri.slice(0, colon)) === undefined;
}

/** No member that expands to a keyword under another name (`id` for `@id`, an alias of `@value`). */
function noKeywordAliases(o: Obj, ctx: CompiledContext): boolean {
  for (const k of Object.keys(o)) {
    if (k.charCodeAt(0) === 64) continue;
    if (ctx.expandTerm(k).charCodeAt(0) === 64) return false;
  }
  return true;
}

/**
 * An attribute instance: a node object (no `@` member), whose sub-attribute names expand to IRIs (the
 * members of ATTRIBUTE_META_MEMBERS are protected core terms, never keyword aliases), with a value
 * the index reads as the graph gives it.
 */
function plainInstance(inst: unknown, ctx: CompiledContext): boolean {
  if (!isObj(inst) || typeof inst.type !== "string") return false;
  for (const k of Object.keys(inst)) {
    if (k.charCodeAt(0) === 64) return false;
    if (!ATTRIBUTE_META_MEMBERS.has(k) && ctx.expandTerm(k).charCodeAt(0) === 64) return false;
  }
  switch (inst.type) {
    case "Property": {
      const v = inst.value;
      return Array.isArray(v) ? v.every((x) => plainValue(x, ctx)) : plainValue(v, ctx);
    }
    case "LanguageProperty": {
      const m = inst.languageMap;
      return isObj(m) && Object.values(m).every((s) => typeof s === "string");
    }
    case "Relationship": {
      const o = inst.object;
      return Array.isArray(o) ? o.every((x) => keepsIri(x, ctx)) : keepsIri(o, ctx);
    }
    default:
      return true; // the index keeps no values of the other kinds (only "exists")
  }
}

/** One element of a Property value. */
function plainValue(x: unknown, ctx: CompiledContext): boolean {
  if (Array.isArray(x)) return false;
  if (!isObj(x)) return true;
  if (!noKeywordAliases(x, ctx)) return false;
  if (!("@value" in x)) return true; // a structured value: "exists" only, however it reads back
  const t = x["@type"];
  if (t === undefined) return true;
  return typeof t === "string" && typeof x["@value"] === "string" && !NATIVE_TYPES.has(ctx.expandTerm(t));
}
