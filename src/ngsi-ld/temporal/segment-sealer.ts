import type { GraphStore, GraphWrite } from "../../store/graph-store";
import type { HistoryRecord } from "./history-record";
import { SEGMENT_MS, type DirtySegment } from "./segment-ledger";
import { segmentGraphIri, segmentTriples } from "./segment-graph";
import type { TemporalEntity, TemporalIndex } from "./temporal-index";

/** Options of {@link SegmentSealer}. */
export interface SealerOptions {
  store: Pick<GraphStore, "commit">;
  /** Records a seal in the history log (and applies it to the index); resolves once on disk. */
  record: (r: HistoryRecord) => Promise<void>;
  /** How often dirty segments are looked at (ms); also how long a closed hour must be quiet. */
  everyMs: number;
  /** How long after its end an hour whose entity sent nothing later is still kept open (ms). */
  graceMs: number;
  log?: (level: "info" | "warn" | "error", msg: string, fields?: object) => void;
}

/** Segments written per store commit. */
const BATCH = 256;

/**
 * How long {@link SegmentSealer.close} may seal at shutdown (ms). What is left stays dirty in the history
 * log and is sealed after the next start, so a large history never holds the shutdown past main.ts's
 * forced exit (measured: ~100k open hours of the 100k-entity bench took more than 15 s).
 */
export const CLOSE_BUDGET_MS = 5_000;

/** What {@link SegmentSealer.commit} writes to the graph: commit meta of history segments. */
export interface HistoryCommitMeta {
  history: true;
}

/**
 * Seals the temporal history into the graph (issue 5 "History in the graph"): every `everyMs` it writes
 * the segment graph ({@link segmentTriples}) of each dirty hour that is closed, i.e. its entity already has
 * an instance at or after the hour's end, or the hour ended `graceMs` ago and nothing touched it for
 * `everyMs`; a segment with no instance left (deleted, retention) drops its graph. After the store commit
 * is durable it records `seal` with the version it read, so a restart seals again only what may differ,
 * and sealing twice writes the same graph (idempotent). Late instances and deletions touch the hour again
 * and it is rewritten at the next sweep. {@link close} seals everything still dirty, open hours included,
 * for at most {@link CLOSE_BUDGET_MS}.
 */
export class SegmentSealer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly index: TemporalIndex,
    private readonly opts: SealerOptions,
  ) {}

  /** Starts the periodic sweep. */
  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.opts.everyMs);
    this.timer.unref();
  }

  /**
   * Seals the closed dirty hours (every dirty hour with `force`), stopping between batches once
   * `deadline` (epoch ms) has passed; resolves with how many were written.
   */
  sweep(force = false, now = Date.now(), deadline = Infinity): Promise<number> {
    if (this.running) return this.running.then(() => (force ? this.sweep(true, now, deadline) : 0));
    this.running = this.sealReady(force, now, deadline).finally(() => (this.running = undefined));
    return this.running;
  }

  /** Stops the sweep and seals every dirty hour it can within {@link CLOSE_BUDGET_MS} (shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const sealed = await this.sweep(true, Date.now(), Date.now() + CLOSE_BUDGET_MS);
    let left = 0;
    for (const _ of this.index.ledger.dirty()) left++;
    if (left) this.opts.log?.("info", "history segments left for the next start", { sealed, left });
  }

  private async sealReady(force: boolean, now: number, deadline: number): Promise<number> {
    const latest = new Map<TemporalEntity, number>();
    const ready: DirtySegment[] = [];
    for (const d of this.index.ledger.dirty()) {
      const e = this.index.entity(d.tenant, d.entity);
      const end = d.start + SEGMENT_MS;
      if (force || !e || this.latest(e, latest) >= end) ready.push(d);
      else if (now >= end + this.opts.graceMs && now - d.touched >= this.opts.everyMs) ready.push(d);
    }
    let written = 0;
    for (let i = 0; i < ready.length && Date.now() < deadline; i += BATCH) {
      const batch = ready.slice(i, i + BATCH);
      try {
        written += await this.commit(batch);
      } catch (err) {
        this.opts.log?.("error", "sealing history segments failed", { error: (err as Error).message });
        break;
      }
    }
    return written;
  }

  /** Writes one batch (grouped by tenant), then records the seals. */
  private async commit(batch: DirtySegment[]): Promise<number> {
    const byTenant = new Map<string, DirtySegment[]>();
    for (const d of batch) (byTenant.get(d.tenant) ?? byTenant.set(d.tenant, []).get(d.tenant)!).push(d);
    for (const [tenant, segs] of byTenant) {
      const writes: GraphWrite[] = segs.map((d) => {
        const e = this.index.entity(tenant, d.entity);
        return {
          graph: segmentGraphIri(d.entity, d.start),
          triples: e ? segmentTriples(this.index, e, d.start) : null,
        };
      });
      await this.opts.store.commit<HistoryCommitMeta>(tenant, writes, { history: true });
      await Promise.all(
        segs.map((d) => this.opts.record({ op: "seal", t: tenant, e: d.entity, h: d.start, v: d.v })),
      );
    }
    return batch.length;
  }

  private latest(e: TemporalEntity, memo: Map<TemporalEntity, number>): number {
    let t = memo.get(e);
    if (t === undefined) {
      t = -Infinity;
      for (const s of e.attrs.values()) if (s.length) t = Math.max(t, s.time(s.length - 1));
      memo.set(e, t);
    }
    return t;
  }
}
