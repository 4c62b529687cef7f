import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CommitPipeline } from "../../../src/events/commit-pipeline";
import type { EntityCodec } from "../../../src/ngsi-ld/entities/entity-codec";
import { EntityRepository } from "../../../src/ngsi-ld/entities/entity-repository";
import { GeoIndex } from "../../../src/ngsi-ld/query/geo";
import type { GraphStore } from "../../../src/store/graph-store";
import { EntityIndex } from "../../../src/store/indexes/entity-index";
import { GraphCache } from "../../../src/store/indexes/graph-cache";
import { openGraphStore } from "../../../src/store/open-store";

/** A store of its own with the id index, the graph cache and the geo index on its commit pipeline (as the app). */
export interface FeedStore {
  dir: string;
  store: GraphStore;
  ids: EntityIndex;
  geo: GeoIndex;
  repo: EntityRepository;
  /** Where further derived stages register (they see the repository's entity changes). */
  pipeline: CommitPipeline;
  /** Closes the store and removes its directory. */
  close(): Promise<void>;
}

/** Opens a {@link FeedStore} in a fresh temporary directory named after `prefix`. */
export async function openFeedStore(prefix: string, codec: EntityCodec): Promise<FeedStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const store = await openGraphStore({ dataDir: dir });
  const pipeline = new CommitPipeline();
  const ids = new EntityIndex();
  pipeline.derive("entity index", (e) => ids.apply(e));
  const cache = new GraphCache();
  pipeline.derive("graph cache", (e) => cache.apply(e));
  const geo = new GeoIndex();
  pipeline.derive("geo index", (e) => geo.apply(e));
  const repo = new EntityRepository(store, ids, codec, cache);
  pipeline.attach(store, repo);
  return {
    dir,
    store,
    ids,
    geo,
    repo,
    pipeline,
    close: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
