import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { exportText, openTenantExport, type ExportOptions } from "../../../../src/store/backup/graph-export";
import { nativeAddon, type NativeStore } from "../../../../src/store/native/native-addon";
import { tenantFolders } from "../../../../src/store/native/tenant-folders";

const nt = (s: string) => Buffer.from(s, "utf8");
const lines = (text: string) => text.split("\n").filter((l) => l !== "");

async function all(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

/** What the public store of the default tenant holds at the start of each test. */
const QUADS = [
  '<urn:e:1> <urn:p> "one" <urn:e:1> .',
  "<urn:e:1> <urn:q> <urn:e:1#a> <urn:e:1> .",
  '<urn:e:1#a> <urn:v> "x y <z> ." <urn:e:1> .',
  '<urn:e:2> <urn:p> "two" <urn:e:2> .',
  '<urn:s> <urn:p> "segment" <urn:citygraph:history:urn:e:1:2026-01-01T00> .',
  '<urn:s> <urn:p> "row" <urn:citygraph:instances:urn:e:1> .',
  '<urn:s> <urn:p> "internal" <urn:citygraph:internal:subs> .',
  '<urn:e:1> <urn:p> "plain" .',
];

describe("store/backup graph export", function () {
  this.timeout(30_000);

  describe("exportText", () => {
    const chunks = [
      '<urn:a> <urn:p> "1" <urn:g:1> .\n<urn:a> <urn:p> "2" <urn:g:1> .\n',
      '<urn:a> <urn:p> "3" <urn:g:1> .\n<urn:b> <urn:p> "a b" <urn:g:2> .\n',
      "_:x <urn:p> <urn:o> _:g .\n",
    ];

    it("gives N-Quads as they come and counts quads and graphs", async () => {
      const seen: [number, number][] = [];
      const opts: ExportOptions = { format: "nquads", history: false, progress: (q, g) => seen.push([q, g]) };
      expect(await all(exportText(chunks, opts))).to.deep.equal(chunks);
      expect(seen).to.deep.equal([[5, 3]]);
    });

    it("gives one TriG block per graph, kept open across chunks", async () => {
      const trig = (await all(exportText(chunks, { format: "trig", history: false }))).join("");
      expect(trig).to.equal(
        "<urn:g:1> {\n" +
          '<urn:a> <urn:p> "1" .\n<urn:a> <urn:p> "2" .\n<urn:a> <urn:p> "3" .\n' +
          "}\n<urn:g:2> {\n" +
          '<urn:b> <urn:p> "a b" .\n' +
          "}\n_:g {\n_:x <urn:p> <urn:o> .\n}\n",
      );
    });

    it("reports progress every `progressEvery` quads", async () => {
      const seen: number[] = [];
      const opts: ExportOptions = {
        format: "nquads",
        history: false,
        progress: (q) => seen.push(q),
        progressEvery: 2,
      };
      await all(exportText(chunks, opts));
      expect(seen).to.deep.equal([2, 4, 5]);
    });
  });

  describe("openTenantExport", () => {
    let storeDir: string;
    let store: NativeStore;
    beforeEach(() => {
      storeDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-export-"));
      // the store worker's handle: the export shares it (one RocksDB handle per folder)
      store = nativeAddon().NativeStore.open(tenantFolders(storeDir, "").public);
      store.apply([{ op: "insertQuads", graph: "", triples: nt(QUADS.join("\n") + "\n") }]);
    });
    afterEach(() => {
      store.close();
      fs.rmSync(storeDir, { recursive: true, force: true });
    });

    const exported = async (history: boolean, chunkBytes?: number) => {
      const e = await openTenantExport(storeDir, "", { format: "nquads", history, chunkBytes });
      if (!e) throw new Error("no export");
      try {
        return (await all(e.chunks)).join("");
      } finally {
        e.close();
      }
    };
    const named = (q: string) => !q.endsWith('"plain" .');

    it("holds the entity graphs, the history segments only when asked, never instance or internal graphs", async () => {
      const graph = (prefix: string) => (q: string) => !q.includes(`<urn:citygraph:${prefix}:`);
      const entities = QUADS.filter(named).filter(graph("history"));
      const internal = graph("internal");
      const instances = graph("instances");
      expect(lines(await exported(false)).sort()).to.deep.equal(
        entities.filter(internal).filter(instances).sort(),
      );
      expect(lines(await exported(true)).sort()).to.deep.equal(
        QUADS.filter(named).filter(internal).filter(instances).sort(),
      );
    });

    it("is the store at the call: writes made while it is read are not in it", async () => {
      const before = lines(await exported(false, 1));
      expect(before).to.have.length(4);
      const e = await openTenantExport(storeDir, "", { format: "nquads", history: false, chunkBytes: 1 });
      if (!e) throw new Error("no export");
      try {
        const first = await e.chunks.next();
        expect(first.done).to.equal(false);
        store.apply([
          { op: "clear", graph: "urn:e:2" },
          { op: "insert", graph: "urn:e:3", triples: nt('<urn:e:3> <urn:p> "three" .\n') },
          { op: "insert", graph: "urn:e:1", triples: nt('<urn:e:1> <urn:p> "later" .\n') },
        ]);
        const text = (first.value as string) + (await all(e.chunks)).join("");
        expect(lines(text)).to.deep.equal(before);
      } finally {
        e.close();
      }
      expect(lines(await exported(false))).to.include('<urn:e:3> <urn:p> "three" <urn:e:3> .');
    });

    it("is undefined for a tenant without a store, making no folder, or whose store holds no named graph", async () => {
      expect(await openTenantExport(storeDir, "nobody", { format: "trig", history: true })).to.equal(
        undefined,
      );
      expect(fs.existsSync(tenantFolders(storeDir, "nobody").public)).to.equal(false);
      const clear = (...graphs: string[]) =>
        store.apply(graphs.map((graph) => ({ op: "clear" as const, graph })));
      clear("urn:e:1", "urn:e:2");
      const onlyHistory = await openTenantExport(storeDir, "", { format: "trig", history: false });
      if (!onlyHistory) throw new Error("a store with history segments has an export, if an empty one");
      expect(await all(onlyHistory.chunks)).to.deep.equal([]);
      onlyHistory.close();
      const segments = await openTenantExport(storeDir, "", { format: "trig", history: true });
      if (!segments) throw new Error("no export");
      expect((await all(segments.chunks)).join("")).to.match(/^<urn:citygraph:history:urn:e:1:[^>]+> \{\n/);
      segments.close();
      clear(
        "urn:citygraph:history:urn:e:1:2026-01-01T00",
        "urn:citygraph:instances:urn:e:1",
        "urn:citygraph:internal:subs",
      );
      expect(await openTenantExport(storeDir, "", { format: "nquads", history: true })).to.equal(undefined);
    });
  });
});
