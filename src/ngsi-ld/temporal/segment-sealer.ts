import type { GraphStore, GraphWrite } from "../../store/graph-store";
import type { HistoryRecord } from "./history-record";
import { SEGMENT_MS, type DirtySegment } from "./segment-ledger";
import { isDayKey } from "./rollup";
import { DAY_MS } from "./rollup-series";
import { dayGraphIri, dayTriples, segmentGraphIri, segmentTriples } from "./segment-graph";
import type { TemporalEntity, TemporalIndex } from "./temporal-index";
import { WriteBurstDeferral } from "./write-burst-deferral";

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
  /**
   * Longest run of the sweep's scan on the main thread before it lets other work in (ms; default
   * {@link SLICE_MS}).
   */
  sliceMs?: number;
  /**
   * Timed sweeps wait for a pause in the history's foreground writes ({@link WriteBurstDeferral}): the
   * epoch ms of the latest one, how long without one counts as a pause (ms; 0 = sweep on time always)
   * and how long a sweep may be put off in a row (ms). Forced sweeps and {@link SegmentSealer.close}
   * never wait.
   */
  burst?: { lastWriteAt: () => number; quietMs: number; maxDeferMs: number };
}

/**
 * Segments written per store commit. Each commit holds the store worker while RocksDB takes it (about
 * 1 ms per segment of the bench's entities), and reads queue behind it: small batches keep that wait short.
 */
const BATCH = 64;

/**
 * Default longest slice of a sweep's scan (ms). The scan looks at every entity with dirty segments: with
 * the open hour of a large city dirty, one synchronous scan stalled every request at every sweep, the
 * whole p99 of the paced type+q query (docs/decisions/0009-query-tail.md).
 */
export const SLICE_MS = 4;

/** Entities looked at between two reads of the clock. */
const CLOCK_EVERY = 64;

/** Lets the event loop run what is waiting (requests, I/O) before the sweep goes on. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * How long {@link SegmentSealer.close} may seal at shutdown (ms). What is left stays dirty in the history
 * log and is sealed after the next start, so a large history never holds the shutdown past main.ts's
 * forced exit (docs/decisions/0008-history-in-the-graph.md).
 */
export const CLOSE_BUDGET_MS = 5_000;

/**
 * Seals the temporal history into the graph: every `everyMs` it writes
 * the segment graph ({@link segmentTriples}) of each dirty hour that is closed, i.e. its entity already has
 * an instance at or after the hour's end, or the hour ended `graceMs` ago and nothing touched it for
 * `everyMs`; a segment with no instance left (deleted, retention) drops its graph. After the store commit
 * is durable it records `seal` with the version it read, so a restart seals again only what may differ,
 * and sealing twice writes the same graph (idempotent). Late instances and deletions touch the hour again
 * and it is rewritten at the next sweep. {@link close} seals everything still dirty, open hours included,
 * for at most {@link CLOSE_BUDGET_MS}. A sweep never holds the main thread for more than `sliceMs` at a
 * time (docs/decisions/0009-query-tail.md).
 */
export class SegmentSealer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  /** Epoch ms by which every sweep stops (set by {@link close}). */
  private closingBy = Infinity;
  private readonly burst: { deferral: WriteBurstDeferral; lastWriteAt: () => number } | undefined;

  constructor(
    private readonly index: TemporalIndex,
    private readonly opts: SealerOptions,
  ) {
    const b = opts.burst;
    if (b)
      this.burst = { deferral: new WriteBurstDeferral(b.quietMs, b.maxDeferMs), lastWriteAt: b.lastWriteAt };
  }

  /** Starts the periodic sweep. */
  start(): void {
    this.timer = setInterval(() => void this.tick(), this.opts.everyMs);
    this.timer.unref();
  }

  /**
   * One timed sweep ({@link sweep} of the closed hours), unless a write burst is going on (see
   * `SealerOptions.burst`): then nothing is sealed now and the hours stay dirty for a later tick.
   * Resolves with how many segments were written.
   */
  tick(now = Date.now()): Promise<number> {
    if (this.burst?.deferral.defer(this.burst.lastWriteAt(), now)) return Promise.resolve(0);
    return this.sweep(false, now);
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

  /**
   * Stops the sweep and seals every dirty hour it can within {@link CLOSE_BUDGET_MS} (shutdown); a sweep
   * already running stops at the same deadline.
   */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.closingBy = Date.now() + CLOSE_BUDGET_MS;
    const sealed = await this.sweep(true, Date.now(), this.closingBy);
    let left = 0;
    for (const _ of this.index.ledger.dirty()) left++;
    if (left) this.opts.log?.("info", "history segments left for the next start", { sealed, left });
  }

  /**
   * Scans the ledger entity by entity, in slices of at most `sliceMs` with the event loop let in between,
   * and commits the ready segments in batches of {@link BATCH} as they are found. A segment touched after
   * the scan read it keeps its newer version dirty ({@link SegmentLedger.sealed}), so writes that land
   * between slices are never lost; entities added meanwhile are looked at if the scan has not passed them.
   */
  private async sealReady(force: boolean, now: number, deadline: number): Promise<number> {
    const sliceMs = this.opts.sliceMs ?? SLICE_MS;
    const pastDeadline = () => Date.now() >= Math.min(deadline, this.closingBy);
    const startedAt = Date.now();
    let ready: DirtySegment[] = [];
    let written = 0;
    let looked = 0;
    let sliceStart = performance.now();
    for (const [tenant, entity, hours] of this.index.ledger.byEntity()) {
      const e = this.index.entity(tenant, entity);
      let latest: number | undefined;
      for (const [start, s] of hours) {
        const end = start + SEGMENT_MS;
        const quiet = now >= end + this.opts.graceMs && now - s.touched >= this.opts.everyMs;
        if (!(force || !e || quiet || (latest ??= latestOf(e)) >= end)) continue;
        ready.push({ tenant, entity, start, v: s.v, touched: s.touched });
      }
      if (ready.length >= BATCH) {
        if (pastDeadline()) return written;
        const n = await this.commitOrLog(ready);
        if (n === undefined) return written;
        written += n;
        ready = [];
        sliceStart = performance.now();
      } else if (++looked % CLOCK_EVERY === 0 && performance.now() - sliceStart >= sliceMs) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
    if (ready.length > 0 && !pastDeadline()) written += (await this.commitOrLog(ready)) ?? 0;
    if (written > 0)
      this.opts.log?.("info", "history segments sealed", {
        segments: written,
        ms: Math.round(Date.now() - startedAt),
      });
    return written;
  }

  /** {@link commit}, logging a failure (then undefined: the sweep stops, the segments stay dirty). */
  private async commitOrLog(batch: DirtySegment[]): Promise<number | undefined> {
    try {
      return await this.commit(batch);
    } catch (err) {
      this.opts.log?.("error", "sealing history segments failed", { error: (err as Error).message });
      return undefined;
    }
  }

  /** Writes one batch (grouped by tenant), then records the seals. */
  private async commit(batch: DirtySegment[]): Promise<number> {
    const byTenant = new Map<string, DirtySegment[]>();
    for (const d of batch) (byTenant.get(d.tenant) ?? byTenant.set(d.tenant, []).get(d.tenant)!).push(d);
    for (const [tenant, segs] of byTenant) {
      const writes: GraphWrite[] = segs.flatMap((d) => this.writesOf(tenant, d));
      await this.opts.store.commit(tenant, writes);
      await Promise.all(
        segs.map((d) => this.opts.record({ op: "seal", t: tenant, e: d.entity, h: d.start, v: d.v })),
      );
    }
    return batch.length;
  }

  /**
   * The graph writes of one dirty segment: the hour's graph, or for a day's key ({@link isDayKey}) the
   * day's aggregate graph together with its 24 hours' graphs as they now are, in one commit, so that a
   * day folded by retention never shows both its hours and its aggregate, nor neither.
   */
  private writesOf(tenant: string, d: DirtySegment): GraphWrite[] {
    const e = this.index.entity(tenant, d.entity);
    const hour = (h: number): GraphWrite => ({
      graph: segmentGraphIri(d.entity, h),
      triples: e ? segmentTriples(this.index, e, h) : null,
    });
    if (!isDayKey(d.start)) return [hour(d.start)];
    const day = d.start - 1;
    const out: GraphWrite[] = [
      { graph: dayGraphIri(d.entity, day), triples: e ? dayTriples(this.index, e, day) : null },
    ];
    for (let h = day; h < day + DAY_MS; h += SEGMENT_MS) out.push(hour(h));
    return out;
  }
}

/** Time (epoch ms) of the latest instance of `e`, -Infinity without any. */
function latestOf(e: TemporalEntity): number {
  let t = -Infinity;
  for (const s of e.attrs.values()) if (s.length) t = Math.max(t, s.time(s.length - 1));
  return t;
}
