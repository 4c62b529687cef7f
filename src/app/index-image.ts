import type { Logger } from "../log/logger";
import type { GraphStore } from "../store/graph-store";
import type { AttributeIndex, AttributeIndexImage } from "../ngsi-ld/query/index/attribute-index";
import type { GeoIndex, GeoIndexImage } from "../ngsi-ld/query/geo";
import type { EntityIndex, EntityIndexImage } from "../store/indexes/entity-index";
import { buildStamp, type IndexImage, writeIndexImage } from "../store/indexes/index-image";

/** The indexes an image holds: the entity, attribute and geo indexes, one frame each in that order. */
export interface ImagedIndexes {
  index: EntityIndex;
  attributes: AttributeIndex;
  geo: GeoIndex;
}

/**
 * Writes the image of the indexes (store/indexes/index-image.ts) as `name` (default: the one the next start
 * reads), `seq` being the last commit they applied; true if written. The indexes are read before the promise
 * is returned (the main thread is held that long: bench/index-image.ts), the file written after. Nothing is
 * written when the service runs without a build stamp or the indexes disagree on the entities they hold; a
 * start then reads every graph.
 */
export async function saveIndexImage(
  dataDir: string,
  seq: number,
  idx: ImagedIndexes,
  log: Logger,
  name?: string,
  blocking = false,
): Promise<boolean> {
  const build = buildStamp();
  if (build === undefined) return false;
  const t0 = Date.now();
  const entities = idx.index.imageParts();
  const numbers = new Map(entities.map((p) => [p.tenant, new Map(p.ids.map((id, i) => [id, i]))]));
  const numbersOf = (tenant: string): Map<string, number> | undefined => numbers.get(tenant);
  const attributes = idx.attributes.imageParts(numbersOf);
  const geo = idx.geo.imageParts(numbersOf);
  if (!attributes || !geo) {
    log.warn("index image not written: the attribute or geo index holds an entity the entity index has not");
    return false;
  }
  const written = writeIndexImage(dataDir, { seq, build }, [entities, attributes, geo], name, blocking);
  const heldMs = Date.now() - t0;
  const bytes = await written;
  log.info("index image written", { seq, bytes, file: name, heldMs, ms: Date.now() - t0 });
  return true;
}

/**
 * Writes the image while the service runs, so that a start after a crash need not read every graph: such a
 * start can use an image at or after the seq its journal replay begins after (StoreStats.durableSeq), which
 * a compaction moves on. Every `everyMs` it writes one if the indexes are filled and the image on disk (if
 * any, from this run) is older than that seq; a clean stop writes the last one.
 */
export class ImageRefresher {
  private readonly timer: NodeJS.Timeout | undefined;
  /** Seq of the image this run wrote last (-1: none). */
  private written = -1;

  constructor(
    everyMs: number,
    private readonly store: Pick<GraphStore, "stats">,
    /** The seq the indexes have applied, or undefined while they are being filled. */
    private readonly indexedSeq: () => number | undefined,
    private readonly save: () => Promise<unknown> | void,
  ) {
    if (everyMs > 0) {
      this.timer = setInterval(() => void this.tick().catch(() => undefined), everyMs);
      this.timer.unref();
    }
  }

  /** Writes an image if the one on disk cannot serve a start after a crash. */
  async tick(): Promise<void> {
    const { durableSeq } = await this.store.stats();
    const seq = this.indexedSeq();
    const usable = this.written >= 0 && this.written >= durableSeq; // a crash start could load it
    if (seq === undefined || seq === this.written || usable) return;
    await this.save();
    this.written = seq;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

/** Entity graphs read per store request while the indexes are brought up to date after an image. */
const TOP_UP_BATCH = 500;

/**
 * Fills the indexes from `image` if this build wrote it and the store holds its seq or a later one it can
 * account for: the same seq, or a start whose journal replay began at or before the image's seq (the
 * graphs replayed after it are then read again and applied, as the change feed would have). Returns
 * whether it did; any other image is left unused (the caller reads every graph instead).
 */
export async function loadIndexImage(
  image: IndexImage | undefined,
  lastSeq: number,
  store: Pick<GraphStore, "readGraphs" | "takeReplayedGraphs">,
  idx: ImagedIndexes,
  log: Logger,
): Promise<boolean> {
  const replayed = store.takeReplayedGraphs();
  if (!image) return false;
  const { seq, build } = image.header;
  const sameBuild = build === buildStamp();
  const covered =
    seq === lastSeq || (replayed?.graphs !== undefined && replayed.after <= seq && seq < lastSeq);
  if (!sameBuild || !covered) {
    log.info("index image not used", { seq, lastSeq, sameBuild, replayedAfter: replayed?.after });
    return false;
  }
  const t0 = Date.now();
  try {
    const entities = image.frames.next().value as EntityIndexImage[];
    const attributes = image.frames.next().value as [string, AttributeIndexImage][];
    const geo = image.frames.next().value as [string, GeoIndexImage][];
    const ids = new Map(entities.map((p) => [p.tenant, p.ids]));
    const idsOf = (tenant: string): string[] => ids.get(tenant) ?? [];
    idx.index.loadImage(entities);
    idx.attributes.loadImage(attributes, idsOf);
    idx.geo.loadImage(geo, idsOf);
  } catch (e) {
    log.warn("index image unreadable; reading every graph instead", { error: String(e) });
    return false;
  }
  const later = (replayed?.graphs ?? []).filter(([, , at]) => at > seq);
  await applyLatest(store, later, lastSeq, idx);
  log.info("derived indexes loaded from their image", {
    seq,
    lastSeq,
    graphsReadAgain: later.length,
    ms: Date.now() - t0,
  });
  return true;
}

/** Reads `graphs` as the store holds them now and applies them to the indexes as writes of `seq`. */
async function applyLatest(
  store: Pick<GraphStore, "readGraphs">,
  graphs: [string, string, number][],
  seq: number,
  idx: ImagedIndexes,
): Promise<void> {
  const byTenant = new Map<string, string[]>();
  for (const [tenant, graph] of graphs)
    (byTenant.get(tenant) ?? byTenant.set(tenant, []).get(tenant)!).push(graph);
  for (const [tenant, names] of byTenant) {
    for (let i = 0; i < names.length; i += TOP_UP_BATCH) {
      const batch = names.slice(i, i + TOP_UP_BATCH);
      const contents = await store.readGraphs(tenant, batch);
      const event = { seq, tenant, writes: batch.map((graph, k) => ({ graph, triples: contents[k] })) };
      idx.index.apply(event);
      idx.geo.apply(event);
      idx.attributes.apply(event);
    }
  }
}
