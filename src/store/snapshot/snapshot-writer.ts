import fs from "node:fs";
import path from "node:path";
import type { TenantDatasets } from "../worker/tenant-datasets";
import { triplesToQuads } from "../worker/ntriples-text";
import { fsyncDir } from "../journal/journal-files";
import { snapshotFileName, SnapshotManifest } from "./snapshot-files";

const yieldToMessages = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Dumps every tenant to `<snapshot file>.tmp` graph by graph, fsyncs, renames (DESIGN.md "Durability is
 * ours to build"). Graphs are dumped in slices with a yield between them, so commits and reads go on
 * meanwhile: the snapshot is "fuzzy" (it may hold some changes newer than `seq`). That is safe because
 * every journal write replaces or drops a whole graph: replaying all records after `seq` over any mix of
 * states at or after `seq` ends in exactly the latest state. Returns the manifest to write (not written).
 */
export async function writeSnapshotFiles(
  dir: string,
  seq: number,
  datasets: TenantDatasets,
  graphsPerSlice = 2000,
): Promise<SnapshotManifest> {
  const t0 = Date.now();
  const tenants: SnapshotManifest["tenants"] = [];
  for (const tenant of datasets.tenants()) {
    const name = snapshotFileName(seq, tenant);
    const tmp = path.join(dir, name + ".tmp");
    const fd = fs.openSync(tmp, "w");
    let bytes = 0;
    let quads = 0;
    try {
      const graphs = datasets.graphs(tenant);
      for (let i = 0; i < graphs.length; i += graphsPerSlice) {
        const parts: string[] = [];
        for (const g of graphs.slice(i, i + graphsPerSlice)) {
          const nt = datasets.readGraph(tenant, g);
          if (nt) parts.push(triplesToQuads(nt, g));
        }
        const buf = Buffer.from(parts.join(""), "utf8");
        for (const p of parts) quads += countLines(p);
        await new Promise<void>((res, rej) =>
          fs.write(fd, buf, 0, buf.length, null, (e) => (e ? rej(e) : res())),
        );
        bytes += buf.length;
        await yieldToMessages();
      }
      await new Promise<void>((res, rej) => fs.fsync(fd, (e) => (e ? rej(e) : res())));
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, path.join(dir, name));
    tenants.push({ tenant, file: name, quads, bytes });
  }
  fsyncDir(dir);
  return { version: 1, seq, tenants, createdAt: new Date().toISOString(), ms: Date.now() - t0 };
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
