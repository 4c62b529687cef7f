import type { Entity } from "../ngsi-ld/model/entity";
import type { CompiledContext } from "../rdf/contexts/compiled-context";
import type { CommitEvent } from "../store/graph-store";

/** What a write of the entity repository changed: each entity it touched, before and after. */
export interface EntityChange {
  /** The operation that wrote (create, replace, batch upsert, delete...). */
  operation: string;
  /** Entities written, as compacted with `ctx`, keyed by id; `null` for a deletion. */
  after: Map<string, Entity | null>;
  /** The same entities before the write (absent when they did not exist). */
  before: Map<string, Entity>;
  ctx: CompiledContext;
}

/**
 * The change event: one committed write as the stages of the commit pipeline see it. `change` is there
 * when the entity repository made the write; other committers (subscriptions, registrations, history
 * segments...) write graphs only.
 */
export interface ChangeEvent extends CommitEvent {
  change?: EntityChange;
}
