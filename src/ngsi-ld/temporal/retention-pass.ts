import type { HistoryRecord, RollupRecord } from "./history-record";
import { dayOf } from "./rollup";
import { SEGMENT_MS, segmentOf } from "./segment-ledger";
import type { TemporalEntity, TemporalIndex } from "./temporal-index";

/** How long each tier of the history keeps its data (ms; 0 = for ever). */
export interface RetentionWindows {
  /** Raw instances (`TEMPORAL_RAW_RETENTION`). */
  rawMs: number;
  /** Hourly aggregates (`TEMPORAL_HOURLY_RETENTION`); daily ones beyond. */
  hourlyMs: number;
  /** Anything at all (`TEMPORAL_RETENTION`). */
  totalMs: number;
}

/** Options of {@link RetentionPass}. */
export interface RetentionPassOptions {
  windows: RetentionWindows;
  /** Applies a record to the index and appends it to the history log; resolves once on disk. */
  record: (r: HistoryRecord) => Promise<void>;
  /** Called after a pass that changed anything (the log's compaction, which frees the disk). */
  changed: () => void;
  /** How often the pass runs (ms). */
  everyMs: number;
  log?: (level: "info" | "warn" | "error", msg: string, fields?: object) => void;
}

/** The cuts of a pass at `now`: whole hours for raw instances, whole UTC days for the rest (0 = none). */
export function cutsAt(now: number, w: RetentionWindows): Omit<RollupRecord, "op" | "t" | "e"> {
  return {
    raw: w.rawMs > 0 ? segmentOf(now - w.rawMs) : 0,
    hour: w.hourlyMs > 0 ? dayOf(now - w.hourlyMs) : 0,
    drop: w.totalMs > 0 ? dayOf(now - w.totalMs) : 0,
  };
}

/** Entities whose records are written (and awaited) together before the pass looks at the clock. */
const CHUNK = 64;
/** Longest run of the pass on the main thread before it lets other work in (ms). */
const SLICE_MS = 4;
/** Interval of the progress lines of a long pass (ms). */
const PROGRESS_MS = 10_000;

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The retention pass of the temporal history (docs/architecture.md "Retention tiers"): every `everyMs` it
 * walks the entities and writes one `roll` record (rollup.ts) for each that holds something past a cut.
 * A record is applied and made durable before the pass goes on, and it changes one entity at once, so a
 * kill -9 mid-pass leaves every entity either before or after its step (replay of the log gives the
 * same), never an hour half folded; data inside the raw window is never touched. The pass works in chunks
 * of {@link CHUNK} entities and slices of {@link SLICE_MS}, lets requests in between, and logs its progress.
 */
export class RetentionPass {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  /** Passes finished since start, failed ones included (a metric). */
  passes = 0;

  constructor(
    private readonly index: TemporalIndex,
    private readonly opts: RetentionPassOptions,
  ) {}

  /** Starts the periodic pass (and one now). */
  start(): void {
    void this.run();
    this.timer = setInterval(() => void this.run(), this.opts.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass as of `now` (joins a running one); resolves with how many entities it changed. */
  run(now = Date.now()): Promise<number> {
    this.running ??= this.pass(now).finally(() => {
      this.running = undefined;
      this.passes++;
    });
    return this.running;
  }

  /** Waits for a running pass. */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async pass(now: number): Promise<number> {
    const cuts = cutsAt(now, this.opts.windows);
    const started = Date.now();
    const before = { ...this.index.rolled };
    let changed = 0;
    let looked = 0;
    let lastLog = started;
    let pending: Promise<void>[] = [];
    let slice = performance.now();
    try {
      for (const tenant of this.index.tenantNames()) {
        for (const e of this.index.entities(tenant)) {
          looked++;
          if (needsRoll(e, cuts)) {
            pending.push(this.opts.record({ op: "roll", t: tenant, e: e.id, ...cuts }));
            changed++;
          }
          if (pending.length >= CHUNK || performance.now() - slice >= SLICE_MS) {
            await Promise.all(pending);
            pending = [];
            await yieldToLoop();
            slice = performance.now();
            if (Date.now() - lastLog >= PROGRESS_MS) {
              lastLog = Date.now();
              this.opts.log?.("info", "temporal retention pass", { looked, changed, ...this.delta(before) });
            }
          }
        }
      }
      await Promise.all(pending);
    } catch (err) {
      this.opts.log?.("error", "temporal retention pass failed", { error: (err as Error).message });
      return changed;
    }
    if (changed > 0) {
      this.opts.log?.("info", "temporal retention pass done", {
        entities: changed,
        ...this.delta(before),
        ms: Date.now() - started,
      });
      this.opts.changed();
    }
    return changed;
  }

  /** What the pass folded and dropped so far. */
  private delta(before: TemporalIndex["rolled"]) {
    const r = this.index.rolled;
    return {
      instancesToHours: r.instances - before.instances,
      hoursToDays: r.hours - before.hours,
      dropped: r.dropped - before.dropped,
    };
  }
}

/** True if `e` holds raw instances before `c.raw`, hourly buckets before `c.hour` or anything before `c.drop`. */
function needsRoll(e: TemporalEntity, c: ReturnType<typeof cutsAt>): boolean {
  const rawCut = Math.max(c.raw, c.drop);
  for (const s of e.attrs.values()) if (s.length && s.time(0) < rawCut) return true;
  for (const roll of e.rollups?.values() ?? []) {
    if (roll.length && roll.start(0) < c.drop) return true;
    if (c.hour > 0 && roll.length && roll.start(0) < c.hour && roll.before(c.hour, SEGMENT_MS).length)
      return true;
  }
  return false;
}
