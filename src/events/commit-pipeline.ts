import { entityWrites, type CommitEvent, type GraphStore } from "../store/graph-store";
import type { ChangeEvent, EntityChange } from "./change-event";
import { stageOrder, type StageName } from "./commit-stages";

/**
 * A durable stage: state that must be as durable as the write (the temporal history); `seq` is the write's
 * journal sequence number, which it records so that it can be cut back to what a recovered journal holds.
 */
export type DurableStage = (tenant: string, change: EntityChange, seq: number) => Promise<void>;

/** A delivery stage: sees each commit, and the acknowledgement of commit `seq` waits for `settled(seq)`. */
export interface DeliveryStage {
  onCommit(event: ChangeEvent): void;
  settled(seq: number): Promise<void> | undefined;
}

/** What the entity repository calls for each of its commits (given by {@link CommitPipeline.attach}). */
export interface CommitHooks {
  /**
   * Commit `seq` of `change` is applied in the store: runs the durable stages, alongside the journal's
   * fsync. The store makes the commit durable, and emits its event, once the returned promise settles.
   */
  applied(tenant: string, change: EntityChange, seq: number): Promise<void> | undefined;
  /** What the acknowledgement of commit `seq` waits for once it is durable: every delivery stage settled. */
  settled(seq: number): Promise<void> | undefined;
}

/** The committer the pipeline hooks into (the entity repository). */
export interface PipelineCommitter {
  setCommitHooks(hooks: CommitHooks): void;
}

interface Named<T> {
  name: string;
  stage: T;
}

/**
 * What a write has done when its client hears "201": the stages of `COMMIT_STAGES` (commit-stages.ts), which says
 * in one place what each does and in which order they run. The modules of the composition register
 * their stages here by name; the pipeline keeps them in the declared order.
 */
export class CommitPipeline {
  private readonly durables: Named<DurableStage>[] = [];
  private readonly derived: Named<{ listener: (e: ChangeEvent) => void; allGraphs: boolean }>[] = [];
  private readonly deliveries: Named<DeliveryStage>[] = [];

  /** Adds a durable stage. */
  durable(name: StageName<"durable">, hook: DurableStage): void {
    inOrder(this.durables, { name, stage: hook });
  }

  /** Adds a derived-state stage: entity graphs only, or every graph with `allGraphs`. Returns a removal. */
  derive(name: StageName<"derived">, listener: (e: ChangeEvent) => void, allGraphs = false): () => void {
    const entry = { name, stage: { listener, allGraphs } };
    inOrder(this.derived, entry);
    return () => {
      const i = this.derived.indexOf(entry);
      if (i >= 0) this.derived.splice(i, 1);
    };
  }

  /** The change feed of every graph as one derived stage, for parts that take the store's `onCommit`. */
  feed(name: StageName<"derived">): Pick<GraphStore, "onCommit"> {
    return { onCommit: (listener) => this.derive(name, listener, true) };
  }

  /** Adds a delivery stage. */
  deliver(name: StageName<"deliver">, stage: DeliveryStage): void {
    inOrder(this.deliveries, { name, stage });
  }

  /** The stage names in the order they run, for the log and the docs. */
  describe(): { durable: string[]; derived: string[]; deliver: string[] } {
    const names = <T>(xs: Named<T>[]) => xs.map((x) => x.name);
    return { durable: names(this.durables), derived: names(this.derived), deliver: names(this.deliveries) };
  }

  /**
   * Connects the stages to the store's change feed and to the committer: the entity change of each
   * commit goes from the committer to the durable stages, then, with the store's event of that commit,
   * to the derived and delivery stages. Returns a detach.
   */
  attach(store: Pick<GraphStore, "onCommit">, committer: PipelineCommitter): () => void {
    // the change of each applied commit, until the store emits that commit (seq order)
    const changes = new Map<number, EntityChange>();
    committer.setCommitHooks({
      applied: (tenant, change, seq) => {
        changes.set(seq, change);
        if (this.durables.length === 0) return undefined;
        if (this.durables.length === 1) return this.durables[0].stage(tenant, change, seq);
        return Promise.all(this.durables.map((d) => d.stage(tenant, change, seq))).then(() => undefined);
      },
      settled: (seq) => {
        const waits = this.deliveries.map((d) => d.stage.settled(seq)).filter((p) => p !== undefined);
        if (waits.length === 0) return undefined;
        return waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined);
      },
    });
    return store.onCommit((committed) => this.run(withChange(committed, changes)));
  }

  private run(event: ChangeEvent): void {
    const entities = entityWrites(event);
    for (const { stage } of this.derived) {
      if (stage.allGraphs) stage.listener(event);
      else if (entities) stage.listener(entities);
    }
    for (const { stage } of this.deliveries) stage.onCommit(event);
  }
}

/**
 * The change event of `committed`: with its entity change, taken out of `changes` with those of earlier
 * commits that never reached the feed (a journal write that failed).
 */
function withChange(committed: CommitEvent, changes: Map<number, EntityChange>): ChangeEvent {
  for (const seq of changes.keys()) {
    if (seq >= committed.seq) break;
    changes.delete(seq);
  }
  const change = changes.get(committed.seq);
  if (change === undefined) return committed;
  changes.delete(committed.seq);
  return { ...committed, change };
}

/** Inserts `entry` after every stage declared before it or with it in commit-stages.ts. */
function inOrder<T>(list: Named<T>[], entry: Named<T>): void {
  const at = stageOrder(entry.name);
  const i = list.findIndex((x) => stageOrder(x.name) > at);
  if (i < 0) list.push(entry);
  else list.splice(i, 0, entry);
}
