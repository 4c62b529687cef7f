import { CompiledJsonLdContext } from "../../rdf/compile-context";
import type { CompiledContext } from "../../rdf/compiled-context";
import { parseNTriples } from "../../rdf/ntriples/parse";
import { ntIri } from "../../rdf/ntriples/write";
import { Compactor } from "./compact-node";
import { TripleWriter } from "./expand-triples";
import { readEntityNode } from "./read-graph";
import { shortcutTriples } from "./shortcuts";
import type { JsonValue, NgsiEntity } from "./types";

/**
 * The fast JSON-LD path for NGSI-LD entities (issue 2 item 5; ETSI GS CIM 009 §5.5.7 and Annex D
 * RDF form): entity -> N-Triples and back, with a compiled context instead of jsonld.js.
 */

/** Options of {@link entityToTriples}. */
export interface ToTriplesOptions {
  /** Include the shortcut triples (default true). False gives only the normative NGSI-LD RDF. */
  shortcuts?: boolean;
  /**
   * Predicates to write a shortcut triple under instead of the attribute's own IRI (attribute IRI ->
   * shortcut predicate IRI). A deployment vocabulary uses it for core terms it cannot redefine: the
   * traffic ontology reads `ngsi-ld:status` as `traffic:status` (DESIGN.md "Values are also plain triples").
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
 * shortcut triples unless `opts.shortcuts === false`. Blank nodes are `_:b0`, `_:b1`, ...
 */
export function entityToTriples(
  entity: NgsiEntity,
  ctx: CompiledContext,
  opts: ToTriplesOptions = {},
): string {
  const c = compiled(ctx);
  const w = new TripleWriter(c);
  const subject = w.node(entity as unknown as { [k: string]: JsonValue });
  if (opts.shortcuts === false) return w.text;
  const subj = subject.startsWith("<") ? subject : ntIri(entity.id);
  return w.text + shortcutTriples(entity, subj, c, opts.shortcutAliases);
}

/**
 * The normalized entity compacted with `ctx` from its graph (JSON-LD 1.1 API §8.5 then §6.1, like
 * jsonld.js `compact`), ignoring shortcut triples. GeoProperty values come back as GeoJSON objects.
 */
export function triplesToEntity(triples: string, entityId: string, ctx: CompiledContext): NgsiEntity {
  const c = compiled(ctx);
  const node = readEntityNode(parseNTriples(triples), entityId);
  return new Compactor(c).node(node) as NgsiEntity;
}
