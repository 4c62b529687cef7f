import fs from "node:fs";
import path from "node:path";
import { fsyncDir, listSegments } from "../journal/journal-files";
import type { JournalRecord } from "../journal/record-codec";
import { forEachRecordInFile } from "../journal/segment-file";
import { lineCount, triplesToQuadsRelabelled } from "../worker/ntriples-text";
import { graphRuns } from "./graph-runs";
import { readChunks, readManifest, snapshotFileName, SnapshotManifest } from "./snapshot-files";

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
 * (DESIGN.md "Durability is ours to build": every write replaces or drops a whole graph, so the last
 * one is the graph's state at `upTo`). Only positions are kept, not the writes' text: holding the text
 * of a 256 MB journal took the compaction worker to ~0.9 GB at 100k bench entities (docs/performance.md
 * "Session 4: RSS at 100k"); the text is read again by {@link appendWrites}.
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
 * Copies the lines of a snapshot file whose graph is not in `replaced` to `out` (fd); returns the
 * number of lines copied.
 */
function copyKept(file: string, replaced: Map<string, LastWrite>, out: number): number {
  let kept = 0;
  let pieces: Buffer[] = [];
  let size = 0;
  const flush = (): void => {
    for (let i = 0; i < pieces.length; i += 1000) fs.writevSync(out, pieces.slice(i, i + 1000));
    pieces = [];
    size = 0;
  };
  for (const run of graphRuns(readChunks(file), file)) {
    if (replaced.has(run.graph)) continue;
    pieces.push(run.buf.subarray(run.start, run.end));
    size += run.end - run.start;
    kept += run.lines;
    if (size > 8 * 1024 * 1024) flush();
  }
  flush();
  return kept;
}

/** A tenant's snapshot file being written: its descriptor and what waits to be written to it. */
interface Output {
  fd: number;
  parts: string[];
  size: number;
  lines: number;
}

function flushOutput(o: Output): void {
  if (o.parts.length) fs.writeSync(o.fd, Buffer.from(o.parts.join(""), "utf8"));
  o.parts = [];
  o.size = 0;
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
      out.parts.push(nq);
      out.size += nq.length;
      if (out.size > 8 * 1024 * 1024) flushOutput(out);
    });
  });
}

/**
 * Writes the snapshot at `seq` WITHOUT the Oxigraph store (DESIGN.md "Durability is ours to build"):
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
      const out: Output = { fd, parts: [], size: 0, lines: 0 };
      outputs.set(tenant, out);
      const prev = old?.tenants.find((t) => t.tenant === tenant);
      if (prev) out.lines += copyKept(path.join(dir, prev.file), writes.get(tenant) ?? new Map(), fd);
    }
    appendWrites(dir, after, seq, writes, outputs);
    for (const out of outputs.values()) {
      flushOutput(out);
      fs.fsyncSync(out.fd);
    }
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
