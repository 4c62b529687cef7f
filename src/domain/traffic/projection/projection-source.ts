import { DEFAULT_TENANT } from "../../../store/graph-store";
import type { Entity } from "../../../ngsi-ld/model/entity";
import type { CompiledContext } from "../../../rdf/contexts/compiled-context";
import type { ChangeEvent } from "../../../events/change-event";
import { PROJECTED_TYPES, type TrafficProjection } from "./traffic-projection";

/** How the projection reads the graph at start: entity ids by expanded type, entities by id. */
export interface EntitySource {
  idsOfType(tenant: string, typeIri: string): string[];
  read(tenant: string, ids: string[], ctx: CompiledContext): Promise<Entity[]>;
}

/**
 * Fills the projection from the graph, then from the change feed. Call {@link ProjectionFeed.apply}
 * for every committed entity write from the moment of construction: writes that land while the
 * graph is read win over what the read returns.
 */
export class ProjectionFeed {
  private loading: Set<string> | undefined = new Set();

  constructor(private readonly projection: TrafficProjection) {}

  /** The change-feed listener (a derived stage of the commit pipeline). */
  apply(event: ChangeEvent): void {
    const change = event.change;
    if (event.tenant !== DEFAULT_TENANT || !change) return;
    for (const [id, after] of change.after) {
      this.loading?.add(id);
      if (after === null) this.projection.remove(id);
      else this.projection.put(after, change.ctx);
    }
  }

  /** Reads every entity of the projected types from the graph (in chunks). */
  async load(source: EntitySource): Promise<void> {
    const ctx = this.projection.traffic;
    // zones first: cameras and accidents are placed in them
    for (const type of PROJECTED_TYPES) {
      const ids = source.idsOfType(DEFAULT_TENANT, ctx.expandTerm(type));
      for (let i = 0; i < ids.length; i += 500) {
        for (const e of await source.read(DEFAULT_TENANT, ids.slice(i, i + 500), ctx)) {
          if (!this.loading?.has(e.id)) this.projection.put(e, ctx);
        }
      }
    }
    this.loading = undefined;
  }
}
