import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { saveIndexImage, type ImagedIndexes } from "../src/app/index-image";
import { createLogger } from "../src/log/logger";
import { fastEntityCodec } from "../src/app/entity-codec";
import { AttributeIndex } from "../src/ngsi-ld/query/index/attribute-index";
import { GeoIndex } from "../src/ngsi-ld/query/geo";
import { compileContext } from "../src/rdf/contexts/compile-context";
import { EntityIndex } from "../src/store/indexes/entity-index";
import { INDEX_IMAGE_DIR, INDEX_IMAGE_FILE, takeIndexImage } from "../src/store/indexes/index-image";
import { entityToNQuadsFast } from "./lib/codec-nquads";
import { entityId, makeEntity } from "./lib/entities";

/**
 * The image of the derived indexes (docs/decisions/0019-native-store.md "At start") for `BENCH_ENTITIES`
 * bench entities (100000), built in process without a store: how long writing it takes, the longest the
 * main thread is held meanwhile (what every request waits at worst), its size, and how long reading it back
 * takes. Run `node dist/bench/index-image.js` after `npm run build` (the image needs the build stamp).
 */
const CORE = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../../contexts/ngsi-ld-core-context-v1.8.jsonld"), "utf8"),
) as object;

/** Watches the event loop with a 1 ms timer; `stop` gives the longest gap between its ticks (ms). */
function holdWatch(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_ENTITIES ?? 100_000);
  const ctx = compileContext([CORE]);
  const idx: ImagedIndexes = {
    index: new EntityIndex(),
    attributes: new AttributeIndex((t, id) => fastEntityCodec.fromTriples(t, id, ctx), ctx),
    geo: new GeoIndex(),
  };
  const now = new Date().toISOString();
  const t0 = performance.now();
  for (let n = 0; n < count; n++) {
    const id = entityId(n);
    const triples = entityToNQuadsFast(makeEntity(n, true), now).replaceAll(` <${id}> .\n`, " .\n");
    idx.index.apply({ seq: n + 1, tenant: "", writes: [{ graph: id, triples }] });
    idx.attributes.scanGraph("", id, triples);
    idx.geo.scanGraph("", id, triples);
  }
  process.stdout.write(`${count} entities indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-image-"));
  const log = createLogger("warn");
  try {
    const holds = holdWatch();
    await new Promise((r) => setTimeout(r, 5));
    const w0 = performance.now();
    const written = await saveIndexImage(dataDir, count, idx, log);
    const writeMs = performance.now() - w0;
    await new Promise((r) => setTimeout(r, 5));
    const longestHoldMs = holds.stop();
    if (!written) throw new Error("no image written (run `npm run build` first: the image needs its stamp)");
    const bytes = fs.statSync(path.join(dataDir, INDEX_IMAGE_DIR, INDEX_IMAGE_FILE)).size;
    const r0 = performance.now();
    const image = takeIndexImage(dataDir);
    if (!image) throw new Error("the image written could not be read back");
    let frames = 0;
    while (!image.frames.next().done) frames++;
    const readMs = performance.now() - r0;
    const result = {
      entities: count,
      writeMs: Math.round(writeMs),
      longestHoldMs: Math.round(longestHoldMs),
      bytes,
      frames,
      readMs: Math.round(readMs),
    };
    process.stdout.write(
      `image write ${result.writeMs} ms, the main thread held at most ${result.longestHoldMs} ms; ` +
        `${(bytes / 1e6).toFixed(1)} MB in ${frames} frames; read back in ${result.readMs} ms\n` +
        `${JSON.stringify(result)}\n`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
