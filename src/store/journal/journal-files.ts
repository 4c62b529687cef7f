import fs from "node:fs";
import path from "node:path";

/** Name of the journal segment whose first record has sequence number `startSeq`. */
export function segmentName(startSeq: number): string {
  return `journal-${String(startSeq).padStart(16, "0")}.log`;
}

/** A journal segment file and the sequence number its first record has. */
export interface Segment {
  file: string;
  startSeq: number;
}

/** Journal segments in `dir`, oldest first (docs/design.md "Durability is ours to build"). */
export function listSegments(dir: string): Segment[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => /^journal-(\d{16})\.log$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: path.join(dir, m[0]), startSeq: Number(m[1]) }))
    .sort((a, b) => a.startSeq - b.startSeq);
}

/** fsyncs a directory so that a created, renamed or deleted file name is durable. */
export function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `data` to `file` durably and atomically: temp file, fsync, rename, fsync of the folder. */
export function writeFileDurably(file: string, data: string | Buffer): void {
  const tmp = file + ".tmp";
  const fd = fs.openSync(tmp, "w");
  try {
    fs.writeSync(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  fsyncDir(path.dirname(file));
}
