import type { Config } from "../config/config";
import type { CommitPipeline } from "../events/commit-pipeline";
import type { Logger } from "../log/logger";
import { DiscoveryIndex } from "../ngsi-ld/discovery/discovery-index";
import { AttributeService } from "../ngsi-ld/entities/attribute-service";
import { BatchService } from "../ngsi-ld/entities/batch-service";
import { EntityRepository } from "../ngsi-ld/entities/entity-repository";
import { EntityService } from "../ngsi-ld/entities/entity-service";
import { AttributeIndex } from "../ngsi-ld/query/index/attribute-index";
import { EntityViewCache } from "../ngsi-ld/query/entity-view-cache";
import { GeoIndex } from "../ngsi-ld/query/geo";
import type { QuerySources } from "../ngsi-ld/query/entity-query";
import type { CompiledContext } from "../rdf/contexts/compiled-context";
import { EntityIndex } from "../store/indexes/entity-index";
import { GraphCache } from "../store/indexes/graph-cache";
import { scanGraphs } from "../store/indexes/graph-scan";
import { takeIndexImage } from "../store/indexes/index-image";
import type { ContextParts } from "./contexts";
import { fastEntityCodec } from "./entity-codec";
import { ImageRefresher, loadIndexImage, saveIndexImage } from "./index-image";
import type { Storage } from "./storage";

/** The NGSI-LD model over the store: indexes derived from the graph, the repository and its services. */
export interface NgsiLdCore {
  index: EntityIndex;
  geo: GeoIndex;
  discovery: DiscoveryIndex;
  repo: EntityRepository;
  views: EntityViewCache;
  querySources: QuerySources;
  entities: EntityService;
  attributes: AttributeService;
  batch: BatchService;
  coreContext: CompiledContext;
  /** True once the background scan has filled the attribute and geo indexes (a readiness check). */
  indexesFilled(): boolean;
  /**
   * At a clean stop, once the store is closed: writes the image of the entity, attribute and geo indexes
   * for the next start (app/index-image.ts), if they are filled.
   */
  saveIndexImage(): Promise<void>;
  /**
   * Writes the image of the indexes as they are now as `name` in `DATA_DIR/indexes` (for a backup); the seq
   * of the last commit they applied, or undefined when they are not filled or it was not written.
   */
  writeIndexImageAs(name: string): Promise<number | undefined>;
}

/**
 * Builds the entity index (before anything reads), the derived indexes (from the image a clean stop wrote,
 * or else filled in the background by one scan of every entity graph), the repository and the entity
 * services, and registers each derived index as a stage of the commit pipeline.
 */
export async function buildNgsiLdCore(
  config: Config,
  log: Logger,
  { store }: Storage,
  contexts: ContextParts,
  pipeline: CommitPipeline,
): Promise<NgsiLdCore> {
  // a clean stop's image of the indexes, taken away now whether it is used or not (index-image.ts)
  const image = takeIndexImage(config.store.dataDir);
  const index = new EntityIndex();
  const geo = new GeoIndex();
  const coreContext = await contexts.contexts.compiled(undefined);
  const attrIndex = new AttributeIndex(
    (t, id) => fastEntityCodec.fromTriples(t, id, coreContext),
    coreContext,
  );
  const imaged = { index, attributes: attrIndex, geo };
  let seq = (await store.stats()).lastSeq;
  let filled = await loadIndexImage(image, seq, store, imaged, log);
  if (!filled) {
    const idsStart = Date.now();
    await index.rebuild(store);
    log.info("entity index rebuilt", { entities: index.size(""), ms: Date.now() - idsStart });
  }
  pipeline.derive("entity index", (e) => index.apply(e));
  pipeline.derive("geo index", (e) => geo.apply(e));
  const discovery = new DiscoveryIndex(store, index);
  pipeline.derive("discovery index", (e) => discovery.apply(e));
  const cache = new GraphCache(config.tuning.graphCacheBytes);
  pipeline.derive("graph cache", (e) => cache.apply(e));
  pipeline.derive("response cache", (e) => contexts.responses.apply(e));
  pipeline.derive("rendered entity cache", (e) => contexts.rendered.apply(e));
  pipeline.derive("attribute index", (e) => attrIndex.apply(e));
  pipeline.derive("derived indexes' seq", (e) => (seq = e.seq), true);
  if (!filled) {
    // One pass over every entity graph fills the attribute and geo indexes in the background: the service
    // answers at once, queries wait for the attribute index (ready()) before they consult either index.
    const scanStart = Date.now();
    const scan = scanGraphs(store, (t) => index.ids(t), [attrIndex, geo], {
      progress: (p) => log.info("derived indexes filling", p),
    });
    attrIndex.fillingBy(scan).then(
      () => {
        filled = true;
        log.info("derived indexes filled (attribute, geo)", { ms: Date.now() - scanStart });
      },
      (e: unknown) => log.error("derived index fill failed", { error: String(e) }),
    );
  }
  // The image of the indexes as `name` (default: the one the next start reads): the seq it holds, or
  // undefined when none was written. One write at a time: two of one name would share a temp file.
  // `blocking` at a clean stop: main.ts's deadline timer must not fire in the middle of it.
  let imageWrites: Promise<unknown> = Promise.resolve();
  const writeImage = (name?: string, blocking = false): Promise<number | undefined> => {
    const next = imageWrites.then(async () => {
      const at = seq;
      if (!filled) return undefined;
      return (await saveIndexImage(config.store.dataDir, at, imaged, log, name, blocking)) ? at : undefined;
    });
    imageWrites = next.catch((e: unknown) =>
      log.error("index image not written", { file: name, error: e instanceof Error ? e.message : String(e) }),
    );
    return next;
  };
  const refresher = new ImageRefresher(
    config.store.indexImageEveryMs,
    store,
    () => (filled ? seq : undefined),
    () => writeImage(),
  );
  const repo = new EntityRepository(store, index, fastEntityCodec, cache);
  const views = new EntityViewCache(repo, 5_000);
  pipeline.derive("entity view cache", (e) => views.apply(e));
  return {
    index,
    geo,
    discovery,
    repo,
    views,
    querySources: { index: attrIndex, entityTypes: index, geo, views },
    entities: new EntityService(repo),
    attributes: new AttributeService(repo),
    batch: new BatchService(repo),
    coreContext,
    indexesFilled: () => filled,
    writeIndexImageAs: (name) => writeImage(name),
    saveIndexImage: async () => {
      refresher.stop();
      await writeImage(undefined, true).catch(() => undefined); // logged by writeImage
    },
  };
}
