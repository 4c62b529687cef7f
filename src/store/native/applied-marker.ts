import fs from "node:fs";
import path from "node:path";
import { writeFileDurably } from "../journal/journal-files";
import { NATIVE_DIR } from "./tenant-folders";

/**
 * The journal seq through which the RocksDB stores are durable (docs/decisions/0019-native-store.md):
 * written only after a flush of every store, so a start replays the journal from the next record on.
 * RocksDB's own write-ahead log is not synced per commit, so what a crash lost after the marker is replayed
 * from the synced journal (each record replaces whole graphs: replaying one that RocksDB kept is harmless).
 */
const MARKER = "applied.json";

/** The marker's seq, or undefined when the stores hold nothing known to be durable (a new or restored folder). */
export function readAppliedMarker(storeDir: string): number | undefined {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(storeDir, NATIVE_DIR, MARKER), "utf8")) as {
      seq?: unknown;
    };
    return typeof m.seq === "number" && Number.isInteger(m.seq) && m.seq >= 0 ? m.seq : undefined;
  } catch {
    return undefined;
  }
}

/** Records that every commit through `seq` is durable in the stores (call only after flushing them all). */
export function writeAppliedMarker(storeDir: string, seq: number): void {
  fs.mkdirSync(path.join(storeDir, NATIVE_DIR), { recursive: true });
  writeFileDurably(path.join(storeDir, NATIVE_DIR, MARKER), JSON.stringify({ seq }));
}

/**
 * Forgets the marker, so that the next start rebuilds the stores from snapshot and journal (after a write
 * failed part-way and left them holding what the journal does not).
 */
export function forgetAppliedMarker(storeDir: string): void {
  fs.rmSync(path.join(storeDir, NATIVE_DIR, MARKER), { force: true });
}

/** Removes the stores and their marker (before loading them anew from a snapshot). */
export function removeNativeStores(storeDir: string): void {
  fs.rmSync(path.join(storeDir, NATIVE_DIR), { recursive: true, force: true });
}
