import fs from "node:fs";
import path from "node:path";
import { fsyncDir, listSegments } from "../journal/journal-files";
import { decodeSegment } from "../journal/record-codec";
import { lineCount, triplesToQuadsRelabelled } from "../worker/ntriples-text";
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

const NL = 0x0a;

/**
 * Copies the lines of a snapshot file whose graph is not in `replaced` to `out` (fd); returns the
 * number of lines copied. Snapshot files hold each graph's lines together and end every line with
 * ` <graph> .`, so the graph is read from the line's end and the decision is reused while it repeats.
 */
function copyKept(file: string, replaced: Map<string, LastWrite>, out: number): number {
  let carry = Buffer.alloc(0);
  let kept = 0;
  let name = Buffer.alloc(0); // graph of the previous line (a copy, valid across chunks)
  let keep = true;
  for (const chunk of readChunks(file)) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const buf = carry.length ? Buffer.concat([carry, bytes]) : bytes;
    const pieces: Buffer[] = [];
    let runStart = 0;
    let at = 0;
    for (let nl = buf.indexOf(NL, at); nl !== -1; nl = buf.indexOf(NL, at)) {
      const gEnd = nl - 3; // the line ends with "> .\n"
      const gStart = buf.lastIndexOf(" <", gEnd) + 2;
      if (gStart < 2 || gStart <= at || buf[gEnd] !== 0x3e)
        throw new Error(`snapshot ${file}: a line without a graph name at byte ${at}`);
      if (buf.compare(name, 0, name.length, gStart, gEnd) !== 0) {
        name = Buffer.from(buf.subarray(gStart, gEnd));
        const wasKept = keep;
        keep = !replaced.has(name.toString("utf8"));
        if (wasKept && !keep) pieces.push(buf.subarray(runStart, at));
        if (!wasKept && keep) runStart = at;
      }
      if (keep) kept++;
      at = nl + 1;
    }
    if (keep) pieces.push(buf.subarray(runStart, at));
    for (const p of pieces) if (p.length) fs.writeSync(out, p);
    carry = Buffer.from(buf.subarray(at));
  }
  if (carry.length) throw new Error(`snapshot ${file} does not end with a newline`);
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
