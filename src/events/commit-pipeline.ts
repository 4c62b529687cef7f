import type { EntityChangeMeta } from "../ngsi-ld/entities/entity-repository";
import { entityWrites, type CommitEvent, type GraphStore } from "../store/graph-store";
import { stageOrder, type StageName } from "./commit-stages";

/** What one committed write carries to the stages after the store (the typed change event). */
export type ChangeEvent = CommitEvent;

/**
 * A durable stage: state that must be as durable as the write (the temporal history); `seq` is the write's
 * journal sequence number, which it records so that it can be cut back to what a recovered journal holds.
 */
export type DurableHook = (tenant: string, change: EntityChangeMeta, seq: number) => Promise<void>;

/** A delivery stage: sees each commit, and the acknowledgement of commit `seq` waits for `settled(seq)`. */
export interface DeliveryStage {
  onCommit(event: ChangeEvent): void;
  settled(seq: number): Promise<void> | undefined;
}

/** The committer the pipeline hooks into (the entity repository). */
export interface PipelineCommitter {
  onDurableCommit(hook: DurableHook): void;
  setCommitBarrier(barrier: (seq: number) => Promise<void> | undefined): void;
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
  private readonly durables: Named<DurableHook>[] = [];
  private readonly derived: Named<{ listener: (e: ChangeEvent) => void; allGraphs: boolean }>[] = [];
  private readonly deliveries: Named<DeliveryStage>[] = [];

  /** Adds a durable stage. */
  durable(name: StageName<"durable">, hook: DurableHook): void {
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

  /** Connects the stages to the store's change feed and to the committer. Returns a detach. */
  attach(store: Pick<GraphStore, "onCommit">, committer: PipelineCommitter): () => void {
    committer.onDurableCommit(async (tenant, change, seq) => {
      if (this.durables.length === 1) return this.durables[0].stage(tenant, change, seq);
      await Promise.all(this.durables.map((d) => d.stage(tenant, change, seq)));
    });
    committer.setCommitBarrier((seq) => {
      const waits = this.deliveries.map((d) => d.stage.settled(seq)).filter((p) => p !== undefined);
      if (waits.length === 0) return undefined;
      return waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined);
    });
    return store.onCommit((event) => {
      const entities = entityWrites(event);
      for (const { stage } of this.derived) {
        if (stage.allGraphs) stage.listener(event);
        else if (entities) stage.listener(entities);
      }
      for (const { stage } of this.deliveries) stage.onCommit(event);
    });
  }
}

/** Inserts `entry` after every stage declared before it or with it in commit-stages.ts. */
function inOrder<T>(list: Named<T>[], entry: Named<T>): void {
  const at = stageOrder(entry.name);
  const i = list.findIndex((x) => stageOrder(x.name) > at);
  if (i < 0) list.push(entry);
  else list.splice(i, 0, entry);
}
