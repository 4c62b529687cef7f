import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { Entity } from "../model/entity";

/**
 * Entity <-> N-Triples mapping used by the repository (docs/design.md "Entities are named graphs").
 * The implementation is the fast path in src/ngsi-ld/codec; tests may substitute jsonld.js.
 */
export interface EntityCodec {
  /** The full graph of an entity (normative NGSI-LD RDF plus shortcut triples). */
  toTriples(entity: Entity, ctx: CompiledContext): string;
  /** The entity back from its graph, compacted with `ctx`. */
  fromTriples(triples: string, id: string, ctx: CompiledContext): Entity;
}
