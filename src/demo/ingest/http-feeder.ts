import fetch from "node-fetch";
import type { Logger } from "../../log/logger";
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
  /** The first tick catches up on this much time before the start (default 3 h), so accidents exist at once. */
  backfillMs?: number;
  /** Accidents per hour city-wide (default: the feed's own, 2). */
  accidentsPerHour?: number;
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
  const start = new Date(Date.now() - (opts.backfillMs ?? 3 * 3_600_000));
  const feed = createFeed({
    seed: opts.seed ?? 20261121,
    cameras: loadFeedCameras(),
    startTime: start,
    accidentsPerHour: opts.accidentsPerHour,
  });
  const url = `${opts.baseUrl}/ngsi-ld/v1/entityOperations/upsert?options=update`;
  let running = false;
  let stopped = false;
  const tick = async (): Promise<void> => {
    if (running || stopped) return;
    running = true;
    const t0 = Date.now();
    try {
      const docs = feed.tick(new Date());
      let refused = 0;
      for (let i = 0; i < docs.length && !stopped; i += BATCH) {
        const res = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/ld+json" },
          body: JSON.stringify(docs.slice(i, i + BATCH)),
        });
        const text = await res.text();
        if (res.status === 207) refused += (JSON.parse(text) as { errors?: unknown[] }).errors?.length ?? 0;
        else if (res.status >= 300) throw new Error(`upsert answered ${res.status}: ${text.slice(0, 300)}`);
      }
      log.debug("feed tick", { documents: docs.length, refused, ms: Date.now() - t0 });
      if (refused) log.warn("feed documents refused", { refused });
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
