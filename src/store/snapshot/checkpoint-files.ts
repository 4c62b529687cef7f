import fs from "node:fs";
import path from "node:path";
import { fsyncDir, writeFileDurably } from "../journal/journal-files";
import { NATIVE_DIR } from "../native/tenant-folders";

/**
 * The store's checkpoint (docs/decisions/0019-native-store.md "Durability"): a RocksDB checkpoint of every
 * tenant's stores at a journal seq, in `<dataDir>/store/checkpoint-<seq>/` with the layout of `native/`
 * (`<tenant key>/public`, `<tenant key>/internal`) and `checkpoint.json` naming its seq. Its table files are
 * hard links to the live stores' (RocksDB never changes a table file, it only deletes it), so taking one
 * costs a flush of the memtables and a link per file. It is what a rebuild starts from and what a backup
 * copies. A checkpoint exists once its folder is renamed from `.tmp`; the latest one is in charge.
 */
export const CHECKPOINT_MANIFEST = "checkpoint.json";

/** What `checkpoint.json` says. */
export interface CheckpointManifest {
  version: 1;
  /** Every commit with seq <= `seq` is in the checkpoint; a rebuild replays the journal after it. */
  seq: number;
  createdAt: string;
}

/** A finished checkpoint: its folder name (in the store folder) and seq. */
export interface Checkpoint {
  name: string;
  seq: number;
}

const NAME = /^checkpoint-(\d{16})$/;

/** The folder name of the checkpoint at `seq`. */
export function checkpointName(seq: number): string {
  return `checkpoint-${String(seq).padStart(16, "0")}`;
}

/** The latest finished checkpoint in `storeDir`, or undefined when there is none. */
export function latestCheckpoint(storeDir: string): Checkpoint | undefined {
  if (!fs.existsSync(storeDir)) return undefined;
  const found = fs
    .readdirSync(storeDir)
    .map((f) => NAME.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ name: m[0], seq: Number(m[1]) }))
    .filter((c) => fs.existsSync(path.join(storeDir, c.name, CHECKPOINT_MANIFEST)))
    .sort((a, b) => b.seq - a.seq);
  return found[0];
}

/** Removes every checkpoint folder but `keep`, and any left half-written (`.tmp`). */
export function removeStaleCheckpoints(storeDir: string, keep: string | undefined): void {
  if (!fs.existsSync(storeDir)) return;
  for (const f of fs.readdirSync(storeDir)) {
    if (f.startsWith("checkpoint-") && f !== keep)
      fs.rmSync(path.join(storeDir, f), { recursive: true, force: true });
  }
}

/**
 * Takes the checkpoint at `seq`: `take(dir)` writes the stores' RocksDB checkpoints under the (new) folder
 * `dir`; the manifest is written in it, and the folder keeps its `.tmp` name until {@link finishCheckpoint}.
 */
export async function startCheckpoint(
  storeDir: string,
  seq: number,
  take: (dir: string) => Promise<void>,
): Promise<string> {
  const tmp = path.join(storeDir, `${checkpointName(seq)}.tmp`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  await take(tmp);
  const manifest: CheckpointManifest = { version: 1, seq, createdAt: new Date().toISOString() };
  writeFileDurably(path.join(tmp, CHECKPOINT_MANIFEST), JSON.stringify(manifest));
  return tmp;
}

/** Gives the checkpoint folder written by {@link startCheckpoint} its final name, durably. */
export function finishCheckpoint(storeDir: string, seq: number): Checkpoint {
  const name = checkpointName(seq);
  fs.renameSync(path.join(storeDir, `${name}.tmp`), path.join(storeDir, name));
  fsyncDir(storeDir);
  return { name, seq };
}

/** Every file of a checkpoint, relative to the store folder with "/" separators; the manifest first. */
export function checkpointFiles(storeDir: string, c: Checkpoint): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const entries = fs.readdirSync(path.join(storeDir, rel), { withFileTypes: true });
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && p !== `${c.name}/${CHECKPOINT_MANIFEST}`) out.push(p);
    }
  };
  walk(c.name);
  return [`${c.name}/${CHECKPOINT_MANIFEST}`, ...out];
}

/**
 * Makes the checkpoint the live stores (`native/`, which must not exist): table files are hard-linked (the
 * live store deletes its links as it compacts, the checkpoint keeps its own), every other file is copied,
 * since RocksDB appends to or reuses them.
 */
export function restoreCheckpoint(storeDir: string, c: Checkpoint): void {
  const copy = (from: string, to: string): void => {
    fs.mkdirSync(to, { recursive: true });
    for (const e of fs.readdirSync(from, { withFileTypes: true })) {
      const src = path.join(from, e.name);
      const dst = path.join(to, e.name);
      if (e.isDirectory()) copy(src, dst);
      else if (e.name === CHECKPOINT_MANIFEST && from === path.join(storeDir, c.name)) continue;
      else if (e.name.endsWith(".sst")) fs.linkSync(src, dst);
      else fs.copyFileSync(src, dst);
    }
    fsyncDir(to);
  };
  copy(path.join(storeDir, c.name), path.join(storeDir, NATIVE_DIR));
}
