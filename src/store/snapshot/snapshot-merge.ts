import fs from "node:fs";
import path from "node:path";
import { fsyncDir, listSegments } from "../journal/journal-files";
import { decodeSegment } from "../journal/record-codec";
import { lineCount, triplesToQuadsRelabelled } from "../worker/ntriples-text";
import { graphRuns } from "./graph-runs";
import { readChunks, readManifest, snapshotFileName, SnapshotManifest } from "./snapshot-files";

/** The last write of one graph in the journal, with the blank-node prefix unique to that write. */
interface LastWrite {
  triples: string | null;
  prefix: string;
}

/**
 * The last write of every graph in the journal records with `after < seq <= upTo`, per tenant
 * (DESIGN.md "Durability is ours to build": every write replaces or drops a whole graph, so the last
 * one is the graph's state at `upTo`). Only segments starting at or before `upTo` are read.
 */
export function lastWrites(dir: string, after: number, upTo: number): Map<string, Map<string, LastWrite>> {
  const tenants = new Map<string, Map<string, LastWrite>>();
  for (const seg of listSegments(dir)) {
    if (seg.startSeq > upTo) continue;
    const decoded = decodeSegment(fs.readFileSync(seg.file));
    if (decoded.damage) throw new Error(`journal segment ${seg.file}: ${decoded.damage.reason}`);
    for (const r of decoded.records) {
      if (r.seq <= after || r.seq > upTo) continue;
      let graphs = tenants.get(r.tenant);
      if (!graphs) tenants.set(r.tenant, (graphs = new Map()));
      r.writes.forEach((w, i) => graphs.set(w.graph, { triples: w.triples, prefix: `j${r.seq}_${i}_` }));
    }
  }
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

/** Appends the graphs written in the journal (relabelled N-Quads) to `out`; returns the lines written. */
function appendWrites(writes: Map<string, LastWrite>, out: number): number {
  let lines = 0;
  let parts: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (parts.length) fs.writeSync(out, Buffer.from(parts.join(""), "utf8"));
    parts = [];
    size = 0;
  };
  for (const [graph, w] of writes) {
    if (!w.triples) continue;
    const nq = triplesToQuadsRelabelled(w.triples, graph, w.prefix);
    lines += lineCount(nq);
    parts.push(nq);
    size += nq.length;
    if (size > 8 * 1024 * 1024) flush();
  }
  flush();
  return lines;
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
  const writes = lastWrites(dir, old?.seq ?? 0, seq);
  const names = new Set([...(old?.tenants.map((t) => t.tenant) ?? []), ...writes.keys()]);
  const tenants: SnapshotManifest["tenants"] = [];
  for (const tenant of names) {
    const name = snapshotFileName(seq, tenant);
    const tmp = path.join(dir, name + ".tmp");
    const fd = fs.openSync(tmp, "w");
    let quads = 0;
    try {
      const prev = old?.tenants.find((t) => t.tenant === tenant);
      const mine = writes.get(tenant) ?? new Map<string, LastWrite>();
      if (prev) quads += copyKept(path.join(dir, prev.file), mine, fd);
      quads += appendWrites(mine, fd);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (quads === 0) {
      fs.rmSync(tmp, { force: true });
      continue;
    }
    fs.renameSync(tmp, path.join(dir, name));
    tenants.push({ tenant, file: name, quads, bytes: fs.statSync(path.join(dir, name)).size });
  }
  fsyncDir(dir);
  return { version: 1, seq, tenants, createdAt: new Date().toISOString(), ms: Date.now() - t0 };
}
