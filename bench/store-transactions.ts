import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { nativeAddon, type NativeStore, type NativeWriteOp } from "../src/store/native/native-addon";
import { entityToNQuadsFast } from "./lib/codec-nquads";
import { entityId, makeEntity } from "./lib/entities";

/**
 * What one small write costs in the native store, and whether grouping writes into one RocksDB
 * transaction lowers it: the bench's entities written as POST writes them (clear the entity graph, insert
 * its N-Triples) straight into a RocksDB store of their own, on this thread, no journal, no HTTP, `group`
 * entities per transaction (each below the bulk threshold). Each group size gets a fresh store; the first
 * pass creates the entities, the second replaces them. Prints entities/s and CPU µs per entity.
 *
 * Run: `node dist/bench/store-transactions.js` (ENTITIES, default 4000; GROUPS, default "1,8,32").
 */
function ops(nt: string[], from: number, to: number): NativeWriteOp[] {
  const out: NativeWriteOp[] = [];
  for (let n = from; n < to; n++) {
    const graph = entityId(n);
    out.push({ op: "clear", graph }, { op: "insert", graph, triples: Buffer.from(nt[n], "utf8") });
  }
  return out;
}

function pass(store: NativeStore, nt: string[], group: number): { perSec: number; cpuUs: number } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let n = 0; n < nt.length; n += group) store.apply(ops(nt, n, Math.min(nt.length, n + group)));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    perSec: Math.round((nt.length / ms) * 1000),
    cpuUs: Math.round((cpu.user + cpu.system) / nt.length),
  };
}

function main(): void {
  const count = Number(process.env.ENTITIES ?? 4000);
  const groups = (process.env.GROUPS ?? "1,8,32").split(",").map(Number);
  const now = new Date().toISOString();
  // N-Triples of each entity graph: the codec's N-Quads with the graph name dropped
  const nt = Array.from({ length: count }, (_, n) =>
    entityToNQuadsFast(makeEntity(n, true), now).replaceAll(` <${entityId(n)}> .\n`, " .\n"),
  );
  const quads = nt[0].split("\n").filter(Boolean).length;
  process.stdout.write(`${count} entities of ${quads} triples, one store per group size\n`);
  process.stdout.write("group  create ent/s  CPU µs/entity  replace ent/s  CPU µs/entity\n");
  const results = [];
  for (const group of groups) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-bench-tx-"));
    const store = nativeAddon().NativeStore.open(dir);
    try {
      const create = pass(store, nt, group);
      const replace = pass(store, nt, group);
      results.push({ group, create, replace });
      process.stdout.write(
        `${String(group).padStart(5)}  ${String(create.perSec).padStart(12)}  ${String(create.cpuUs).padStart(13)}  ${String(replace.perSec).padStart(13)}  ${String(replace.cpuUs).padStart(13)}\n`,
      );
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`${JSON.stringify({ entities: count, triples: quads, results })}\n`);
}

main();
