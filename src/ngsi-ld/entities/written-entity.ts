import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { ChangeEvent, EntityChange } from "../../events/change-event";
import { entityAttributeFacts, type AttributeFact } from "../codec/attribute-facts";
import { readsAsWritten } from "../codec/reads-as-written";
import { typesOf, type Entity } from "../model/entity";

/**
 * An entity a commit of the repository wrote, as the change feed hands it to the derived indexes
 * (attribute, geo, discovery) instead of the N-Triples the repository encoded from it: no index parses
 * a graph this thread has just written (docs/architecture.md "A write, end to end" step 6). Shared by
 * every listener of the commit; read-only.
 */
export class WrittenEntity {
  private facts?: AttributeFact[];
  private expandedTypes?: string[];

  constructor(
    /** The entity as committed, compacted with `ctx` (the change event's after-state). */
    readonly entity: Entity,
    readonly ctx: CompiledContext,
  ) {}

  /** What codec/attribute-facts.ts reads of its graph: one fact per attribute instance. */
  attributeFacts(): AttributeFact[] {
    return (this.facts ??= entityAttributeFacts(this.entity, this.ctx));
  }

  /** Its expanded type IRIs, as the graph's rdf:type triples give them. */
  types(): string[] {
    return (this.expandedTypes ??= typesOf(this.entity).map((t) => this.ctx.expandTerm(t)));
  }
}

/** Per entity change: the written entities already looked at (null: decode its graph instead). */
const seen = new WeakMap<EntityChange, Map<string, WrittenEntity | null>>();

/**
 * The entity `event` wrote to `graph`, when the event is the repository's and reading the entity
 * gives what decoding the graph would (codec/reads-as-written.ts); undefined otherwise (a deletion,
 * another committer, an entity whose graph must be decoded), and the caller decodes `write.triples`.
 */
export function writtenEntity(event: ChangeEvent, graph: string): WrittenEntity | undefined {
  const change = event.change;
  if (!change) return undefined;
  let byGraph = seen.get(change);
  if (!byGraph) seen.set(change, (byGraph = new Map()));
  let w = byGraph.get(graph);
  if (w === undefined) {
    const e = change.after.get(graph);
    w = e && e.id === graph && readsAsWritten(e, change.ctx) ? new WrittenEntity(e, change.ctx) : null;
    byGraph.set(graph, w);
  }
  return w ?? undefined;
}
