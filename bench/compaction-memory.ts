import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encodeJournalRecord } from "../src/store/journal/record-codec";
import { segmentName } from "../src/store/journal/journal-files";
import { COMPACTION_LIMITS, mergeInWorker } from "../src/store/snapshot/compactor";
import { snapshotFileName, writeManifest } from "../src/store/snapshot/snapshot-files";

/*
 * Memory of one compaction (docs/decisions/0002-memory-at-scale.md): builds a data
 * folder shaped like the 100k bench fill's (a snapshot of BENCH_COMPACT_ENTITIES graphs of ~9 KB
 * N-Triples each, a journal segment of BENCH_COMPACT_JOURNAL_MB rewriting some of them in records of 50
 * writes), then runs the compaction worker on it and samples the process RSS every 10 ms.
 * Run: node dist-bench/bench/compaction-memory.js [kept-dir] (built there once, reused after);
 * BENCH_COMPACT_YOUNG_MB=0 runs the worker with V8's default young generation.
 */

const entities = Number(process.env.BENCH_COMPACT_ENTITIES ?? "100000");
const journalMb = Number(process.env.BENCH_COMPACT_JOURNAL_MB ?? "256");

function triples(i: number, v: number): string {
  const s = `<urn:ngsi-ld:Vehicle:v${i}>`;
  let t = "";
  for (let a = 0; a < 30; a++) {
    t += `${s} <https://uri.etsi.org/ngsi-ld/default-context/attr${a}> _:b${a} .\n`;
    t += `_:b${a} <https://uri.etsi.org/ngsi-ld/hasValue> "value ${v} of attribute ${a} of vehicle ${i} with some padding text é"^^<http://www.w3.org/2001/XMLSchema#string> .\n`;
  }
  return t;
}

function build(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const snapSeq = 1000;
  const snap = fs.openSync(path.join(dir, snapshotFileName(snapSeq, "")), "w");
  let parts: string[] = [];
  let bytes = 0;
  for (let i = 0; i < entities; i++) {
    const g = `urn:ngsi-ld:Vehicle:v${i}`;
    const nq = triples(i, 0).replace(/ \.\n/g, ` <${g}> .\n`).replace(/_:b/g, `_:s${i}_b`);
    parts.push(nq);
    if (parts.length === 1000) {
      const b = Buffer.from(parts.join(""), "utf8");
      fs.writeSync(snap, b);
      bytes += b.length;
      parts = [];
    }
  }
  const b = Buffer.from(parts.join(""), "utf8");
  fs.writeSync(snap, b);
  bytes += b.length;
  fs.closeSync(snap);
  writeManifest(dir, {
    version: 1,
    seq: snapSeq,
    tenants: [{ tenant: "", file: snapshotFileName(snapSeq, ""), quads: entities * 60, bytes }],
    createdAt: new Date().toISOString(),
    ms: 0,
  });
  const seg = fs.openSync(path.join(dir, segmentName(snapSeq + 1)), "w");
  let seq = snapSeq;
  let written = 0;
  for (let n = 0; written < journalMb * 1024 * 1024; n += 50) {
    const writes = [];
    for (let k = 0; k < 50; k++) {
      const i = (n + k) % entities;
      writes.push({ graph: `urn:ngsi-ld:Vehicle:v${i}`, triples: triples(i, n + 1) });
    }
    const rec = encodeJournalRecord({ seq: ++seq, tenant: "", writes });
    fs.writeSync(seg, rec);
    written += rec.length;
  }
  fs.closeSync(seg);
  fs.writeFileSync(path.join(dir, "seq.txt"), String(seq));
  console.log(
    `built ${dir}: snapshot ${(bytes / 2 ** 20).toFixed(0)} MB, journal ${(written / 2 ** 20).toFixed(0)} MB, seq ${seq}`,
  );
}

async function main(): Promise<void> {
  const kept = process.argv[2];
  const dir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-compact-"));
  if (!fs.existsSync(path.join(dir, "seq.txt"))) build(dir);
  const seq = Number(fs.readFileSync(path.join(dir, "seq.txt"), "utf8"));
  for (const f of fs.readdirSync(dir))
    if (f.includes(`-${String(seq).padStart(16, "0")}-`)) fs.rmSync(path.join(dir, f));
  if (global.gc) global.gc();
  await new Promise((r) => setTimeout(r, 500));
  const base = process.memoryUsage();
  let peak = base.rss;
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  const young = process.env.BENCH_COMPACT_YOUNG_MB;
  const done = mergeInWorker(
    dir,
    seq,
    young === undefined ? COMPACTION_LIMITS : { maxYoungGenerationSizeMb: Number(young) || undefined },
  );
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const manifest = await done.finally(() => clearInterval(timer));
  const ms = Date.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const mb = (x: number): string => (x / 2 ** 20).toFixed(0);
  console.log(
    `compaction: ${ms} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, RSS ${mb(base.rss)} -> peak ${mb(peak)} MB (delta ${mb(peak - base.rss)} MB), quads ${manifest.tenants[0].quads}, bytes ${manifest.tenants[0].bytes}`,
  );
  if (!kept) fs.rmSync(dir, { recursive: true, force: true });
}

void main();
