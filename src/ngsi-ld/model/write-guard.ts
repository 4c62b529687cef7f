import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { Entity } from "./entity";

/**
 * What takes out of an entity write the attributes that must never reach the shared graph or its
 * temporal history (personal data, which the domain keeps apart: docs/decisions/0014-personal-data-apart.md).
 * The entity repository and the temporal API run every write through it before it is stored.
 */
export interface WriteGuard {
  /**
   * `e` (a tenant's entity or temporal fragment, terms compacted with `ctx`, of the expanded types
   * `types`) without the attributes kept apart, which are stored apart first; `e` itself when it has none.
   */
  apart(tenant: string, e: Entity, types: readonly string[], ctx: CompiledContext): Promise<Entity>;
}
