import fetch from "node-fetch";
import type { Logger } from "../../log/logger";
import { TRAFFIC_CONTEXT_URL } from "../../domain/vocabulary";
import { createFeed, loadFeedCameras } from "../feed";

/** Options of {@link startFeed}. */
export interface FeederOptions {
  /** Base URL of the broker's NGSI-LD API, e.g. http://127.0.0.1:1026 */
  baseUrl: string;
  log: Logger;
  /** Time between ticks (default 60 s). */
  intervalMs?: number;
  /** PRNG seed of the feed (default 20261121). */
  seed?: number;
  /**
   * History sent at start, so that accidents, statistics, forecasts and analytics have data from the first
   * minute (default 26 h: a whole day with its rush hours and accidents, whatever the hour of the start).
   */
  backfillMs?: number;
  /** Window of each backfill tick (default 15 min: every camera observed every 15 minutes of the past). */
  backfillStepMs?: number;
  /** Accidents per hour city-wide (default: the feed's own, 2). */
  accidentsPerHour?: number;
  /** The bearer token to send, when the broker checks credentials (the service's own token with AUTH=on). */
  credential?: () => Promise<string>;
  /** Called after each tick: the backfill's progress (ms of history sent of ms to send) and the tick count. */
  onTick?: (backfill: { done: number; total: number }) => void;
}

/** Documents per batch request (well under the batch limits of any broker). */
const BATCH = 500;

/**
 * The live feed (`FEED=off` turns it off) as an external feeder: every tick it sends the
 * feed's observations to the broker's own NGSI-LD API, POST /ngsi-ld/v1/entityOperations/upsert?options=update
 * (ETSI GS CIM 009 v1.8 §5.6.8), over HTTP like any other client. Returns a stop function.
 */
export function startFeed(opts: FeederOptions): () => void {
  const { log } = opts;
  let start = new Date(Date.now() - (opts.backfillMs ?? 26 * 3_600_000));
  const from = start.getTime();
  const step = opts.backfillStepMs ?? 15 * 60_000;
  // the time the next tick observes up to: walks through the backfill in steps, then follows the clock
  let cursor = start.getTime();
  let feed: ReturnType<typeof createFeed> | undefined;
  const url = `${opts.baseUrl}/ngsi-ld/v1/entityOperations/upsert?options=update`;
  let running = false;
  let stopped = false;
  let caughtUp = false;
  const started = Date.now();
  const tick = async (): Promise<void> => {
    if (running || stopped) return;
    running = true;
    const t0 = Date.now();
    try {
      if (!feed) {
        // after a restart, go on from the latest observation the broker holds (no history sent twice)
        const latest = await latestObservation(opts.baseUrl, await opts.credential?.());
        if (latest !== undefined && latest > start.getTime()) start = new Date(Math.min(latest, Date.now()));
        cursor = start.getTime();
        feed = createFeed({
          seed: opts.seed ?? 20261121,
          cameras: loadFeedCameras(),
          startTime: start,
          accidentsPerHour: opts.accidentsPerHour,
        });
      }
      const now = Date.now();
      cursor = Math.min(now, cursor + step);
      const docs = feed.tick(new Date(cursor));
      let refused = 0;
      for (let i = 0; i < docs.length && !stopped; i += BATCH) {
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "Content-Type": "application/ld+json",
            ...(opts.credential ? { Authorization: `Bearer ${await opts.credential()}` } : {}),
          },
          body: JSON.stringify(docs.slice(i, i + BATCH)),
        });
        const text = await res.text();
        if (res.status === 207) refused += (JSON.parse(text) as { errors?: unknown[] }).errors?.length ?? 0;
        else if (res.status >= 300) throw new Error(`upsert answered ${res.status}: ${text.slice(0, 300)}`);
      }
      log.debug("feed tick", {
        at: new Date(cursor).toISOString(),
        documents: docs.length,
        refused,
        ms: Date.now() - t0,
      });
      if (cursor < now && !stopped)
        setImmediate(() => void tick()); // still backfilling
      else if (!caughtUp) {
        caughtUp = true;
        log.info("feed backfill done", { from: start.toISOString(), ms: Date.now() - started });
      }
      if (refused) log.warn("feed documents refused", { refused });
      opts.onTick?.({ done: cursor - from, total: Math.max(now - from, cursor - from) });
    } catch (e) {
      if (!stopped) log.error("feed tick failed", { error: e instanceof Error ? e.message : String(e) });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), opts.intervalMs ?? 60_000);
  timer.unref();
  void tick();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** dateObservedTo of one TrafficFlowObserved in the broker (epoch ms), or undefined. */
async function latestObservation(baseUrl: string, token?: string): Promise<number | undefined> {
  const res = await fetch(
    `${baseUrl}/ngsi-ld/v1/entities?type=TrafficFlowObserved&limit=1&options=keyValues`,
    {
      headers: {
        Link: `<${TRAFFIC_CONTEXT_URL}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    },
  );
  if (res.status !== 200) return undefined;
  const [e] = (await res.json()) as { dateObservedTo?: unknown }[];
  const v = e?.dateObservedTo;
  const text = typeof v === "object" && v !== null ? (v as { "@value"?: unknown })["@value"] : v;
  const t = typeof text === "string" ? Date.parse(text) : NaN;
  return Number.isNaN(t) ? undefined : t;
}
