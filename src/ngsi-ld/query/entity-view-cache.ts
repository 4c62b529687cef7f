import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { CommitEvent } from "../../store/graph-store";
import type { EntityRepository } from "../entities/entity-repository";
import type { Entity } from "../model/entity";
import { variantsOf } from "./variants-of";

/**
 * Decoded entities for the read-only query path (docs/design.md "Indexes beside the store, derived from it"):
 * the entities the codec made from their graphs, per tenant, id and @context, so that a page asked for
 * again is not decoded again. Bounded (least recently used out first) and kept current by the change
 * feed: a committed write to an entity drops every decoded copy of it. The entities handed out are
 * shared: callers render them and never modify them.
 */
export class EntityViewCache {
  private readonly map = new Map<string, Map<string, Entity>>();
  /** Bumped by every commit: a read that saw a commit land meanwhile is not remembered (it may be stale). */
  private generation = 0;

  constructor(
    private readonly repo: EntityRepository,
    private readonly capacity = 20_000,
  ) {}

  /** The entities of `ids` compacted with `ctx` (missing ones are left out), in order. */
  async read(tenant: string, ids: string[], ctx: CompiledContext): Promise<Entity[]> {
    const found = new Map<string, Entity>();
    const missing: string[] = [];
    for (const id of ids) {
      const key = tenant + "\u0000" + id;
      const views = this.map.get(key);
      const e = views?.get(ctx.key);
      if (e && views) {
        this.map.delete(key);
        this.map.set(key, views);
        found.set(id, e);
      } else missing.push(id);
    }
    if (missing.length) {
      const before = this.generation;
      const read = await this.repo.readMany(tenant, missing, ctx);
      const fresh = before === this.generation;
      read.forEach((e) => {
        if (!e) return;
        found.set(e.id, e);
        if (fresh) this.remember(tenant + "\u0000" + e.id, ctx.key, e);
      });
    }
    return ids.map((id) => found.get(id)).filter((e): e is Entity => !!e);
  }

  /** The change-feed listener: every written or dropped graph loses its decoded copies. */
  apply(event: CommitEvent): void {
    this.generation++;
    for (const w of event.writes) this.map.delete(event.tenant + "\u0000" + w.graph);
  }

  private remember(key: string, ctxKey: string, e: Entity): void {
    variantsOf(this.map, key, this.capacity).set(ctxKey, e);
  }
}
