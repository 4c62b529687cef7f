import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { GraphStore } from "../../../src/store/graph-store";
import { openGraphStore, OpenStoreOptions } from "../../../src/store/open-store";

/** A fresh temporary DATA_DIR; remove it with {@link removeDir}. */
export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-store-"));
}

/** Removes a temporary directory. */
export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Log lines collected from a store. */
export type LogLine = { level: string; msg: string; fields?: object };

/** Opens a store on `dir` without WASM pre-growth (fast for tests), collecting log lines in `logs`. */
export function open(
  dir: string,
  extra: Partial<OpenStoreOptions> = {},
  logs: LogLine[] = [],
): Promise<GraphStore> {
  return openGraphStore({
    dataDir: dir,
    log: (level, msg, fields) => logs.push({ level, msg, fields }),
    ...extra,
  });
}

/** The journal segment files of a store in `dir`, oldest first. */
export function segments(dir: string): string[] {
  const d = path.join(dir, "store");
  return fs
    .readdirSync(d)
    .filter((f) => f.startsWith("journal-"))
    .sort()
    .map((f) => path.join(d, f));
}

/** N-Triples of a small entity with blank-node attribute nodes (like NGSI-LD's expanded RDF). */
export function entityTriples(id: string, value: string | number, attrs = 2): string {
  const lines = [`<${id}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <urn:test:Camera> .`];
  for (let k = 0; k < attrs; k++) {
    lines.push(`<${id}> <urn:test:attr${k}> _:b${k} .`);
    lines.push(`_:b${k} <https://uri.etsi.org/ngsi-ld/hasValue> "${value}-${k}" .`);
  }
  return lines.join("\n") + "\n";
}

/** Sorted lines of N-Triples text with blank-node labels replaced by `_:x` (labels are store-chosen). */
export function normalized(nt: string | null): string[] | null {
  if (nt === null) return null;
  return nt
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => l.replace(/_:[A-Za-z0-9]+/g, "_:x"))
    .sort();
}

/**
 * Mocha hooks for a store on a fresh temporary DATA_DIR, opened before the tests (or before each with
 * `each`) and closed and removed after; `set` receives each store opened.
 */
export function withTempStore(set: (store: GraphStore) => void, each = false): void {
  let dir = "";
  let store: GraphStore | undefined;
  (each ? beforeEach : before)(async () => {
    dir = tempDir();
    store = await open(dir);
    set(store);
  });
  (each ? afterEach : after)(async () => {
    await store?.close();
    removeDir(dir);
  });
}
