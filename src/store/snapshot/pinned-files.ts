import fs from "node:fs";
import path from "node:path";
import { listSegments, type Segment } from "../journal/journal-files";
import { readManifest, type SnapshotManifest } from "./snapshot-files";

/** A snapshot and the journal segments after it, each held open so that deleting its name does not matter. */
export interface PinnedFiles {
  manifest: SnapshotManifest | undefined;
  /** One descriptor per tenant of the manifest, in its order. */
  snapshots: { tenant: string; file: string; fd: number }[];
  /** Every segment that existed once the manifest was read, oldest first, with its descriptor. */
  segments: Segment[];
  /** Closes every descriptor. */
  close(): void;
}

/**
 * Opens the current snapshot files and every journal segment as one consistent set, for a reader beside
 * the live store worker (the SPARQL replica). A compaction writes its manifest before it deletes the
 * files the previous one named, so: read the manifest, open what it names and every segment, and read
 * the manifest again; if it changed (or a file vanished between listing and opening) start over. Once
 * open, the descriptors read the files to the end even after a compaction deletes them (POSIX unlink),
 * and segments created later hold only commits the reader receives from the change feed.
 */
export function pinStoreFiles(dir: string, tries = 50): PinnedFiles {
  for (let attempt = 1; ; attempt++) {
    const fds: number[] = [];
    const close = (): void => fds.splice(0).forEach((fd) => fs.closeSync(fd));
    const open = (file: string): number => {
      const fd = fs.openSync(file, "r");
      fds.push(fd);
      return fd;
    };
    try {
      const manifest = readManifest(dir);
      const snapshots = (manifest?.tenants ?? []).map((t) => ({
        tenant: t.tenant,
        file: t.file,
        fd: open(path.join(dir, t.file)),
      }));
      const segments = listSegments(dir).map((s) => ({ ...s, fd: open(s.file) }));
      if (sameManifest(manifest, readManifest(dir))) return { manifest, snapshots, segments, close };
      close();
    } catch (e) {
      close();
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= tries) throw e;
    }
    if (attempt >= tries) throw new Error("the store compacted on every attempt to read it");
  }
}

function sameManifest(a: SnapshotManifest | undefined, b: SnapshotManifest | undefined): boolean {
  return a?.seq === b?.seq && a?.createdAt === b?.createdAt;
}
