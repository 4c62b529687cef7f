/**
 * A JSON-LD context compiled once into term maps, so that NGSI-LD entities are expanded and compacted without jsonld.js on the hot path.
 *
 * CONTRACT (implemented by the codec work; callers rely on exactly this):
 * - `compileContext(contexts)` takes the already-resolved list of context OBJECTS (remote contexts
 *   fetched and inlined, the NGSI-LD core context last), applies them in order with JSON-LD 1.1
 *   processing rules (prefixes, compact IRIs, @vocab, @type coercion, @container, @protected), and
 *   returns an immutable CompiledContext.
 */

/** What one term means after compilation. */
export interface TermDefinition {
  /** Absolute IRI (or keyword such as "@id", "@type"). */
  iri: string;
  /** Type coercion: "@id", "@vocab", "@json", or a datatype IRI. */
  coerce?: string;
  /** Container: "@list", "@set", "@language", "@index", "@graph"... */
  container?: string;
}

/** A compiled context. */
export interface CompiledContext {
  /** Expands a term or compact IRI used as a property or type name (vocab-relative). */
  expandTerm(term: string): string;
  /** Compacts an absolute IRI to the best term / compact IRI of this context (vocab-relative). */
  compactIri(iri: string): string;
  /** The definition of a term, if the context defines it. */
  definition(term: string): TermDefinition | undefined;
  /** A stable key identifying this compiled context (for caches). */
  readonly key: string;
}
