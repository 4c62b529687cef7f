import * as fs from "fs";
import * as path from "path";
import { triplesToEntity } from "../src/ngsi-ld/codec";
import { DiscoveryIndex } from "../src/ngsi-ld/discovery/discovery-index";
import type { Entity } from "../src/ngsi-ld/model/entity";
import { AttributeIndex } from "../src/ngsi-ld/query/index/attribute-index";
import { GeoIndex } from "../src/ngsi-ld/query/geo";
import { TemporalService } from "../src/ngsi-ld/temporal/temporal-service";
import { compileContext } from "../src/rdf/contexts/compile-context";
import { openGraphStore } from "../src/store/open-store";
import { EntityIndex } from "../src/store/indexes/entity-index";
import { GraphCache } from "../src/store/indexes/graph-cache";

/**
 * Where the main thread's memory goes with a filled DATA_DIR (RSS with 100k entities, bytes
 * per entity): each structure the service derives from the store is built on its own, as app.ts builds
 * it, and the live heap (after a forced GC) is read before and after; the time of each build is the
 * start-up phase it stands for. The store itself lives in its worker (its WASM memory is reported from
 * /health's statistics, not here).
 *
 * Run: `node --expose-gc dist/bench/memory.js <DATA_DIR> [--discovery] [--temporal-only]` on a DATA_DIR
 * the bench kept (`BENCH_KEEP_DATA=1`). `--discovery` also builds the discovery index (slow on the old
 * path); `--temporal-only` measures only the temporal history (no store needed).
 */
const CORE = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../../contexts/ngsi-ld-core-context-v1.8.jsonld"), "utf8"),
) as object;

const gc = (globalThis as { gc?: () => void }).gc;

function live(): { heap: number; external: number } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external + m.arrayBuffers };
}

/** One measured part. */
interface Part {
  part: string;
  ms: number;
  heapBytes: number;
  externalBytes: number;
  bytesPerEntity: number;
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir || !gc) {
    process.stderr.write("usage: node --expose-gc dist/bench/memory.js <DATA_DIR> [--discovery]\n");
    process.exit(2);
  }
  const withDiscovery = process.argv.includes("--discovery");
  const ctx = compileContext([CORE]);
  const parts: Part[] = [];
  let entities = 1;
  const keep: unknown[] = [];
  const measure = async <T>(part: string, build: () => Promise<T> | T): Promise<T> => {
    const before = live();
    const t0 = performance.now();
    const v = await build();
    const ms = performance.now() - t0;
    keep.push(v);
    const after = live();
    const heapBytes = after.heap - before.heap;
    const externalBytes = after.external - before.external;
    const p = { part, ms, heapBytes, externalBytes, bytesPerEntity: (heapBytes + externalBytes) / entities };
    parts.push(p);
    process.stdout.write(
      `${part.padEnd(28)} ${(ms / 1000).toFixed(1).padStart(6)} s  heap ${(heapBytes / 1e6).toFixed(1).padStart(8)} MB  external ${(externalBytes / 1e6).toFixed(1).padStart(7)} MB  ${p.bytesPerEntity.toFixed(0).padStart(6)} B/entity\n`,
    );
    return v;
  };

  const base = live();
  if (process.argv.includes("--temporal-only")) {
    const t = await measure("temporal history", () =>
      TemporalService.open({ dir: path.join(dataDir, "history"), compactBytes: 1 << 30 }),
    );
    process.stdout.write(`${JSON.stringify({ ...t.index.stats(), parts })}\n`);
    process.exit(0);
  }
  const store = await measure("store open (worker)", () => openGraphStore({ dataDir }));
  const index = await measure("entity index", async () => {
    const i = new EntityIndex();
    await i.rebuild(store);
    return i;
  });
  entities = index.size("");
  process.stdout.write(`entities: ${entities}\n`);
  await measure("geo index", async () => {
    const g = new GeoIndex();
    await g.rebuild(store, index);
    return g;
  });
  const decode = (t: string, id: string) => triplesToEntity(t, id, ctx) as Entity;
  await measure("attribute index", async () => {
    const a = new AttributeIndex(decode, ctx);
    await a.rebuild(store, (tenant) => [...index.entries(tenant)].map(([id]) => id));
    return a;
  });
  if (withDiscovery)
    await measure("discovery index", async () => {
      const d = new DiscoveryIndex(store, index);
      await d.ready();
      return d;
    });
  await measure("temporal history", () =>
    TemporalService.open({ dir: path.join(dataDir, "history"), compactBytes: 1 << 30 }),
  );
  const ids = [...index.entries("")].map(([id]) => id);
  const graphs: string[] = [];
  await measure("graph cache (64 MiB, full)", async () => {
    const c = new GraphCache();
    for (let i = 0; i < Math.min(20_000, ids.length); i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      (await store.readGraphs("", chunk)).forEach((g, k) => {
        if (g) c.set("", chunk[k], g);
        if (g && graphs.length < 5000) graphs.push(g);
      });
    }
    return c;
  });
  const views = await measure("view cache (5k entities)", () => graphs.map((g, i) => decode(g, ids[i])));
  await measure("response cache (20k bodies)", () => {
    const m = new Map<string, string>();
    for (let i = 0; i < Math.min(20_000, ids.length); i++) {
      const e = views[i % views.length];
      m.set(ids[i], JSON.stringify({ ...e, id: ids[i] }));
    }
    return m;
  });
  const end = live();
  process.stdout.write(
    `total main-thread heap ${((end.heap - base.heap) / 1e6).toFixed(0)} MB, external ${((end.external - base.external) / 1e6).toFixed(0)} MB; RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB\n`,
  );
  process.stdout.write(`${JSON.stringify({ entities, parts })}\n`);
  await store.close();
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`memory bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
