import { CompiledJsonLdContext } from "../../rdf/contexts/compile-context";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { parseNTriples } from "../../rdf/ntriples/parse";
import { ntIri } from "../../rdf/ntriples/write";
import { Compactor } from "./compact-node";
import { TripleWriter } from "./expand-triples";
import { readEntityNode } from "./read-graph";
import { shortcutTriples } from "./shortcuts";
import { attributeTimesLine, attributeTimesOf, restoreAttributeTimes } from "./system-times";
import type { JsonValue, NgsiEntity } from "./types";

/**
 * The fast JSON-LD path for NGSI-LD entities (ETSI GS CIM 009 §5.5.7 and Annex D
 * RDF form): entity -> N-Triples and back, with a compiled context instead of jsonld.js.
 */

/** Options of {@link entityToTriples}. */
export interface ToTriplesOptions {
  /** Include the shortcut triples (default true). False gives only the normative NGSI-LD RDF. */
  shortcuts?: boolean;
  /**
   * Keep the attribute instances' createdAt/modifiedAt in one literal on the entity instead of two
   * triples per instance (see system-times.ts). Default: the value of `shortcuts` (true), so that
   * `shortcuts: false` still gives the purely normative RDF.
   */
  compactTimes?: boolean;
  /**
   * Predicates to write a shortcut triple under instead of the attribute's own IRI (attribute IRI ->
   * shortcut predicate IRI). A deployment vocabulary uses it for core terms it cannot redefine: the
   * traffic ontology reads `ngsi-ld:status` as `traffic:status` (docs/design.md "Values are also plain triples").
   */
  shortcutAliases?: Readonly<Record<string, string>>;
}

function compiled(ctx: CompiledContext): CompiledJsonLdContext {
  if (ctx instanceof CompiledJsonLdContext) return ctx;
  throw new TypeError("the codec needs a context made by compileContext()");
}

/**
 * The N-Triples of a validated, normalized entity: what jsonld.js `expand` + `toRDF` produce
 * (JSON-LD 1.1 API §5.1, §8.4), except that a GeoProperty value is one rdf:JSON literal, plus the
 * shortcut triples unless `opts.shortcuts === false`, with the attribute timestamps in one literal
 * unless `opts.compactTimes === false` (system-times.ts). Blank nodes are `_:b0`, `_:b1`, ...
 */
export function entityToTriples(
  entity: NgsiEntity,
  ctx: CompiledContext,
  opts: ToTriplesOptions = {},
): string {
  const c = compiled(ctx);
  const json = entity as unknown as { [k: string]: JsonValue };
  const split = (opts.compactTimes ?? opts.shortcuts !== false) ? attributeTimesOf(json, c) : undefined;
  const w = new TripleWriter(c, split !== undefined);
  const subject = w.node(json);
  const entityTerm = subject.startsWith("<") ? subject : ntIri(entity.id);
  const times = split ? attributeTimesLine(entityTerm, split) : "";
  const text =
    opts.shortcuts === false
      ? w.text + times
      : w.text + times + shortcutTriples(entity, entityTerm, c, opts.shortcutAliases);
  return flat(text);
}

/**
 * The text built by `+=` is a V8 rope (a tree of ConsStrings, about twice the text's size on the heap);
 * callers keep it (graph cache, change feed), so it is flattened in place once here: reading a character
 * makes V8 copy it into one sequential string (docs/decisions/0002-memory-at-scale.md).
 */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

/**
 * The normalized entity compacted with `ctx` from its graph (JSON-LD 1.1 API §8.5 then §6.1, like
 * jsonld.js `compact`), ignoring shortcut triples. GeoProperty values come back as GeoJSON objects.
 */
export function triplesToEntity(triples: string, entityId: string, ctx: CompiledContext): NgsiEntity {
  const c = compiled(ctx);
  const parsed = parseNTriples(triples);
  const node = readEntityNode(parsed, entityId);
  restoreAttributeTimes(node, parsed, entityId);
  return new Compactor(c).node(node) as NgsiEntity;
}
