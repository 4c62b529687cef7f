import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { CommitEvent, GraphStore, GraphWrite } from "../../store/graph-store";
import type { EntityIndex } from "../../store/indexes/entity-index";
import type { GraphCache } from "../../store/indexes/graph-cache";
import type { Entity } from "../model/entity";
import type { EntityCodec } from "./entity-codec";
import { KeyedLock } from "./keyed-lock";

/** What a commit tells change-feed listeners about the entities it touched. */
export interface EntityChangeMeta {
  operation: string;
  /** Entities written, as compacted with `ctx`, keyed by id; `null` for a deletion. */
  after: Map<string, Entity | null>;
  /** The same entities before the write (absent when they did not exist). */
  before: Map<string, Entity>;
  ctx: CompiledContext;
}

/** State as durable as a commit (the temporal history), given the commit's journal seq to record with it. */
export type DurableCommitHook = (tenant: string, meta: EntityChangeMeta, seq: number) => Promise<void>;

/** The meta of a commit the repository made (undefined for other committers' events). */
export function entityChangeOf(event: CommitEvent): EntityChangeMeta | undefined {
  const m = event.meta as EntityChangeMeta | null | undefined;
  return typeof m === "object" && m !== null && m.after instanceof Map ? m : undefined;
}

/**
 * Reads and writes whole entities as named graphs of one tenant (docs/design.md "Entities are named
 * graphs"; ETSI GS CIM 009 §5.6). Holds the per-entity locks so that read-modify-write sequences of
 * the operations in this folder never interleave on one entity.
 */
export class EntityRepository {
  readonly locks = new KeyedLock();
  private readonly durableHooks: DurableCommitHook[] = [];
  private barrier?: (seq: number) => Promise<void> | undefined;

  constructor(
    private readonly store: GraphStore,
    readonly index: EntityIndex,
    private readonly codec: EntityCodec,
    private readonly cache: GraphCache,
  ) {}

  /**
   * Adds a hook awaited for every commit before the write is acknowledged: for derived state that
   * must be as durable as the entity (the temporal history). It runs once the store has
   * applied the write (GraphStore.commit `onApplied`), alongside the journal's fsync, in commit order.
   * A hook failing fails the write's acknowledgement, though the entity change itself is committed.
   */
  onDurableCommit(hook: DurableCommitHook): void {
    this.durableHooks.push(hook);
  }

  /**
   * Sets what a commit waits for after it is durable and before it resolves (the notifications of an
   * acknowledged write are enqueued before the acknowledgement; src/events/commit-pipeline.ts).
   */
  setCommitBarrier(barrier: (seq: number) => Promise<void> | undefined): void {
    this.barrier = barrier;
  }

  /** True if the entity exists (index lookup, no store round trip). */
  exists(tenant: string, id: string): boolean {
    return this.index.has(tenant, id);
  }

  /** Reads one entity, compacted with `ctx`; undefined if it does not exist. */
  async read(tenant: string, id: string, ctx: CompiledContext): Promise<Entity | undefined> {
    return (await this.readMany(tenant, [id], ctx))[0];
  }

  /** Reads many entities in one round trip; missing ones are undefined. */
  async readMany(tenant: string, ids: string[], ctx: CompiledContext): Promise<(Entity | undefined)[]> {
    const byId = new Map<string, string | null>();
    const missing: string[] = [];
    for (const id of ids) {
      if (!this.index.has(tenant, id)) continue;
      const hit = this.cache.get(tenant, id);
      if (hit !== undefined) byId.set(id, hit);
      else missing.push(id);
    }
    const graphs = missing.length ? await this.store.readGraphs(tenant, missing) : [];
    missing.forEach((id, i) => {
      const t = graphs[i];
      byId.set(id, t);
      if (t !== null) this.cache.set(tenant, id, t);
    });
    return ids.map((id) => {
      const t = byId.get(id);
      return t ? this.codec.fromTriples(t, id, ctx) : undefined;
    });
  }

  /**
   * Commits entity graphs atomically: each entity in `save` replaces its graph, each id in `remove`
   * drops its graph. Resolves once the write is durable.
   */
  async commit(
    tenant: string,
    operation: string,
    ctx: CompiledContext,
    save: Entity[],
    remove: string[] = [],
    before: Map<string, Entity> = new Map(),
  ): Promise<void> {
    const writes: GraphWrite[] = [];
    const after = new Map<string, Entity | null>();
    for (const e of save) {
      writes.push({ graph: e.id, triples: this.codec.toTriples(e, ctx) });
      after.set(e.id, e);
    }
    for (const id of remove) {
      writes.push({ graph: id, triples: null });
      after.set(id, null);
    }
    if (writes.length === 0) return;
    const unknown = remove.filter((id) => !before.has(id));
    if (unknown.length) {
      // the change feed tells what was deleted (types for subscriptions, the last state for entityDeleted)
      for (const e of await this.readMany(tenant, unknown, ctx)) if (e) before.set(e.id, e);
    }
    const meta: EntityChangeMeta = { operation, after, before, ctx };
    const hooks = this.durableHooks;
    const alongside = hooks.length
      ? async (seq: number) => void (await Promise.all(hooks.map((h) => h(tenant, meta, seq))))
      : undefined;
    const seq = await this.store.commit(tenant, writes, meta, alongside);
    await this.barrier?.(seq);
  }
}
