import fs from "node:fs";
import path from "node:path";
import { fsyncDir, listSegments } from "../journal/journal-files";
import type { JournalRecord } from "../journal/record-codec";
import { forEachRecordInFile } from "../journal/segment-file";
import { lineCount, triplesToQuadsRelabelled } from "../worker/ntriples-text";
import { graphRunsOfFile } from "./graph-runs";
import { readManifest, snapshotFileName, SnapshotManifest } from "./snapshot-files";

/** Where the last write of one graph is in the journal: its record's seq and its index in the record. */
interface LastWrite {
  seq: number;
  index: number;
}

/** Calls `each` for every journal record with `after < seq <= upTo` (segments starting after `upTo` are not read). */
function journalRecords(dir: string, after: number, upTo: number, each: (r: JournalRecord) => void): void {
  for (const seg of listSegments(dir)) {
    if (seg.startSeq > upTo) continue;
    const end = forEachRecordInFile<JournalRecord>(seg.file, (r) => {
      if (r.seq > after && r.seq <= upTo) each(r);
    });
    if (end.damage) throw new Error(`journal segment ${seg.file}: ${end.damage.reason}`);
  }
}

/**
 * Where the last write of every graph in the journal records with `after < seq <= upTo` is, per tenant
 * (docs/design.md "Durability is ours to build": every write replaces or drops a whole graph, so the last
 * one is the graph's state at `upTo`). Only positions are kept, not the writes' text, which would hold
 * the whole journal in the compaction worker's heap (docs/decisions/0002-memory-at-scale.md); the text is
 * read again by {@link appendWrites}.
 */
export function lastWrites(dir: string, after: number, upTo: number): Map<string, Map<string, LastWrite>> {
  const tenants = new Map<string, Map<string, LastWrite>>();
  journalRecords(dir, after, upTo, (r) => {
    let graphs = tenants.get(r.tenant);
    if (!graphs) tenants.set(r.tenant, (graphs = new Map()));
    r.writes.forEach((w, index) => graphs.set(w.graph, { seq: r.seq, index }));
  });
  return tenants;
}

/**
 * Copies the lines of a snapshot file whose graph is not in `replaced` to `out` (fd), one read buffer's
 * worth at a time; returns the number of lines copied.
 */
function copyKept(file: string, replaced: Map<string, LastWrite>, out: number): number {
  let kept = 0;
  let pieces: Buffer[] = [];
  for (const run of graphRunsOfFile(file)) {
    if (!replaced.has(run.graph)) {
      pieces.push(run.buf.subarray(run.start, run.end));
      kept += run.lines;
    }
    if (run.chunkEnd) {
      // the slices are only valid until the next read
      for (let i = 0; i < pieces.length; i += 1000) writeAll(out, pieces.slice(i, i + 1000));
      pieces = [];
    }
  }
  return kept;
}

/** writev of all of `pieces` (writevSync may write fewer bytes than asked). */
function writeAll(fd: number, pieces: Buffer[]): void {
  let total = 0;
  for (const p of pieces) total += p.length;
  let n = fs.writevSync(fd, pieces);
  if (n === total) return;
  for (const p of pieces) {
    if (n >= p.length) {
      n -= p.length;
      continue;
    }
    for (let at = n; at < p.length;) at += fs.writeSync(fd, p, at, p.length - at);
    n = 0;
  }
}

/** A tenant's snapshot file being written: its descriptor and the lines written to it. */
interface Output {
  fd: number;
  lines: number;
}

/**
 * ONE buffer for the texts appended to every output, flushed when full or when another output is
 * appended to (joining the texts into a string and encoding it anew kept more of the compaction worker's
 * heap: docs/decisions/0002-memory-at-scale.md).
 */
class OutputBuffer {
  private readonly buf = Buffer.allocUnsafe(8 * 1024 * 1024);
  private used = 0;
  private owner: Output | undefined;

  /** Appends `text` as UTF-8 to `o`'s file; a text that cannot fit in the buffer is written directly. */
  append(o: Output, text: string): void {
    // at most 3 UTF-8 bytes per UTF-16 unit
    if (this.owner !== o || this.buf.length - this.used < text.length * 3) this.flush();
    this.owner = o;
    if (text.length * 3 > this.buf.length) writeAll(o.fd, [Buffer.from(text, "utf8")]);
    else this.used += this.buf.write(text, this.used, "utf8");
  }

  /** Writes what the buffer holds to its owner's file. */
  flush(): void {
    if (this.owner && this.used > 0) writeAll(this.owner.fd, [this.buf.subarray(0, this.used)]);
    this.used = 0;
  }
}

/**
 * Appends the last write of each graph (relabelled N-Quads, blank nodes prefixed per write so they stay
 * unique in the file) to its tenant's output, reading the journal records again in order.
 */
function appendWrites(
  dir: string,
  after: number,
  upTo: number,
  last: Map<string, Map<string, LastWrite>>,
  outputs: Map<string, Output>,
  sink: OutputBuffer,
): void {
  journalRecords(dir, after, upTo, (r) => {
    const graphs = last.get(r.tenant);
    const out = outputs.get(r.tenant);
    if (!graphs || !out) return;
    r.writes.forEach((w, i) => {
      const at = graphs.get(w.graph);
      if (!w.triples || at?.seq !== r.seq || at.index !== i) return;
      const nq = triplesToQuadsRelabelled(w.triples, w.graph, `j${r.seq}_${i}_`);
      out.lines += lineCount(nq);
      sink.append(out, nq);
    });
  });
}

/**
 * Writes the snapshot at `seq` WITHOUT the Oxigraph store (docs/design.md "Durability is ours to build"):
 * each tenant's file is the previous snapshot's lines minus the graphs the journal rewrote after it,
 * plus the last write of each of those graphs, so it is exactly the state at `seq`. Files go to
 * `<name>.tmp`, are fsynced and renamed; the folder is fsynced. Returns the manifest to write (not
 * written: the caller does that, then deletes what it replaces). Runs in its own worker thread
 * (compaction-worker.ts), so the store keeps committing meanwhile.
 */
export function mergeSnapshot(dir: string, seq: number): SnapshotManifest {
  const t0 = Date.now();
  const old = readManifest(dir);
  const after = old?.seq ?? 0;
  const writes = lastWrites(dir, after, seq);
  const names = new Set([...(old?.tenants.map((t) => t.tenant) ?? []), ...writes.keys()]);
  const outputs = new Map<string, Output>();
  const tenants: SnapshotManifest["tenants"] = [];
  try {
    for (const tenant of names) {
      const fd = fs.openSync(path.join(dir, snapshotFileName(seq, tenant) + ".tmp"), "w");
      const out: Output = { fd, lines: 0 };
      outputs.set(tenant, out);
      const prev = old?.tenants.find((t) => t.tenant === tenant);
      if (prev) out.lines += copyKept(path.join(dir, prev.file), writes.get(tenant) ?? new Map(), fd);
    }
    const sink = new OutputBuffer();
    appendWrites(dir, after, seq, writes, outputs, sink);
    sink.flush();
    for (const out of outputs.values()) fs.fsyncSync(out.fd);
  } finally {
    for (const out of outputs.values()) fs.closeSync(out.fd);
  }
  for (const [tenant, out] of outputs) {
    const name = snapshotFileName(seq, tenant);
    const tmp = path.join(dir, name + ".tmp");
    if (out.lines === 0) {
      fs.rmSync(tmp, { force: true });
      continue;
    }
    fs.renameSync(tmp, path.join(dir, name));
    tenants.push({ tenant, file: name, quads: out.lines, bytes: fs.statSync(path.join(dir, name)).size });
  }
  fsyncDir(dir);
  return { version: 1, seq, tenants, createdAt: new Date().toISOString(), ms: Date.now() - t0 };
}
