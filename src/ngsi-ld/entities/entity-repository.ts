import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { EntityChange } from "../../events/change-event";
import type { CommitHooks, PipelineCommitter } from "../../events/commit-pipeline";
import type { GraphStore, GraphWrite } from "../../store/graph-store";
import type { EntityIndex } from "../../store/indexes/entity-index";
import type { GraphCache } from "../../store/indexes/graph-cache";
import { typesOf, type Entity } from "../model/entity";
import type { WriteGuard } from "../model/write-guard";
import type { EntityCodec } from "./entity-codec";
import { KeyedLock } from "./keyed-lock";

/**
 * Reads and writes whole entities as named graphs of one tenant (docs/design.md "Entities are named
 * graphs"; ETSI GS CIM 009 §5.6). Holds the per-entity locks so that read-modify-write sequences of
 * the operations in this folder never interleave on one entity.
 */
export class EntityRepository implements PipelineCommitter {
  readonly locks = new KeyedLock();
  private hooks?: CommitHooks;
  private guard?: WriteGuard;

  constructor(
    private readonly store: GraphStore,
    readonly index: EntityIndex,
    private readonly codec: EntityCodec,
    private readonly cache: GraphCache,
  ) {}

  /**
   * Hands each commit's entity change to the commit pipeline (src/events/commit-pipeline.ts): its durable
   * stages run once the store has applied the write, alongside the journal's fsync; the commit resolves
   * once they are done and every delivery stage has settled it. A durable stage failing fails the write's
   * acknowledgement, though the entity change itself is committed.
   */
  setCommitHooks(hooks: CommitHooks): void {
    this.hooks = hooks;
  }

  /** Runs every saved entity through `guard` first (what it takes out never reaches the graph). */
  setWriteGuard(guard: WriteGuard): void {
    this.guard = guard;
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
    if (missing.length) {
      const ticket = this.cache.beginRead();
      let graphs: (string | null)[] = [];
      try {
        graphs = await this.store.readGraphs(tenant, missing);
      } finally {
        this.cache.keepRead(
          ticket,
          tenant,
          graphs.map((t, i) => [missing[i], t]),
        );
      }
      missing.forEach((id, i) => byId.set(id, graphs[i]));
    }
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
    const guard = this.guard;
    if (guard)
      save = await Promise.all(
        save.map((e) =>
          guard.apart(
            tenant,
            e,
            typesOf(e).map((t) => ctx.expandTerm(t)),
            ctx,
          ),
        ),
      );
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
    const change: EntityChange = { operation, after, before, ctx };
    const hooks = this.hooks;
    const seq = await this.store.commit(
      tenant,
      writes,
      hooks && ((seq) => hooks.applied(tenant, change, seq)),
    );
    await hooks?.settled(seq);
  }
}
