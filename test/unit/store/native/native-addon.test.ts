import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { nativeAddon, nativeErrorKind } from "../../../../src/store/native/native-addon";

const nt = (s: string) => Buffer.from(s, "utf8");

describe("store/native addon", function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-native-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("shares one RocksDB handle per folder: a second open sees the first one's writes at once", () => {
    const { NativeStore } = nativeAddon();
    const a = NativeStore.open(dir);
    const b = NativeStore.open(dir);
    try {
      expect(a.apply([{ op: "insert", graph: "urn:g", triples: nt('<urn:s> <urn:p> "v" .\n') }])).to.equal(1);
      expect(b.readGraphs(["urn:g", "urn:none"])).to.deep.equal(['<urn:s> <urn:p> "v" .\n', null]);
      expect(b.quadsForPattern("<urn:s>", null, null, null)).to.equal('<urn:s> <urn:p> "v" <urn:g> .\n');
    } finally {
      a.close();
      b.close();
    }
    // both let go: the folder opens again (RocksDB's lock is free)
    const c = NativeStore.open(dir);
    expect(c.countQuads()).to.equal(1);
    c.close();
  });

  it("applies a write whole or not at all, and says why it refused one", () => {
    const s = nativeAddon().NativeStore.open(dir);
    try {
      const e = (() => {
        try {
          s.apply([
            { op: "insert", graph: "urn:a", triples: nt('<urn:a> <urn:p> "1" .\n') },
            { op: "insert", graph: "urn:b", triples: nt('<urn:b> <urn:p> "2 .\n') },
          ]);
        } catch (err) {
          return err;
        }
      })();
      expect(nativeErrorKind(e)).to.equal("Refused");
      expect(s.countQuads()).to.equal(0);
    } finally {
      s.close();
    }
  });

  it("answers a query off the JavaScript thread in each format, cut at the row limit", async () => {
    const { NativeStore, QueryCancel } = nativeAddon();
    const s = NativeStore.open(dir);
    try {
      const triples = Array.from({ length: 5 }, (_, i) => `<urn:e:${i}> <urn:p> "${i}" .`).join("\n");
      s.apply([{ op: "insert", graph: "", triples: nt(triples + "\n") }]);
      const q = "SELECT ?s ?o WHERE { ?s <urn:p> ?o } ORDER BY ?o";
      const json = await s.query(q, "json", 3, new QueryCancel());
      expect(json).to.include({ rows: 3, truncated: true });
      expect(
        JSON.parse(json.body).results.bindings.map((b: { o: { value: string } }) => b.o.value),
      ).to.deep.equal(["0", "1", "2"]);
      expect((await s.query(q, "csv", 10, new QueryCancel())).body).to.match(/^s,o\r\nurn:e:0,0\r\n/);
      const ttl = await s.query("CONSTRUCT WHERE { ?s <urn:p> ?o }", "ntriples", 10, new QueryCancel());
      expect(ttl.rows).to.equal(5);
      expect(ttl.body).to.contain('<urn:e:4> <urn:p> "4" .');
      const refused = await s.query("SELEKT", "json", 10, new QueryCancel()).catch((e: unknown) => e);
      expect(nativeErrorKind(refused)).to.equal("Refused");
      expect((refused as Error).message).to.contain("SPARQL query refused");
    } finally {
      s.close();
    }
  });

  it("stops a running query when its token is cancelled", async () => {
    const { NativeStore, QueryCancel } = nativeAddon();
    const s = NativeStore.open(dir);
    try {
      const triples = Array.from({ length: 400 }, (_, i) => `<urn:e:${i}> <urn:p> "${i}" .`).join("\n");
      s.apply([{ op: "insert", graph: "", triples: nt(triples + "\n") }]);
      const cancel = new QueryCancel();
      const t0 = Date.now();
      // 400^4 = 25.6 G solutions: hours of work unless stopped
      const heavy = s.query(
        "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f . ?g ?t ?h }",
        "json",
        10,
        cancel,
      );
      setTimeout(() => cancel.cancel(), 200);
      const e = await heavy.catch((err: unknown) => err);
      expect(nativeErrorKind(e)).to.equal("Cancelled");
      // the engine checks its token between steps of the evaluation: seconds at most, not the hours it would run
      expect(Date.now() - t0).to.be.lessThan(30_000);
    } finally {
      s.close();
    }
  });

  it("dumps the named graphs in chunks of whole lines, without the default graph or skipped ones", async () => {
    const s = nativeAddon().NativeStore.open(dir);
    try {
      const quads = [
        '<urn:a> <urn:p> "1" <urn:g:a> .',
        '<urn:a> <urn:p> "2" <urn:g:a> .',
        '<urn:b> <urn:p> "3" <urn:skip:b> .',
        '<urn:c> <urn:p> "4" .',
      ];
      s.apply([{ op: "insertQuads", graph: "", triples: nt(quads.join("\n") + "\n") }]);
      const sync = s.dumpNamedGraphs(["urn:skip:"]);
      const chunks: string[] = [];
      for (let c = sync.next(1); c !== null; c = sync.next(1)) chunks.push(c);
      expect(
        chunks.every((c) => /^[^\n]+\n$/.test(c)),
        "one whole line each",
      ).to.equal(true);
      expect(chunks.sort()).to.deep.equal([quads[0] + "\n", quads[1] + "\n"]);
      expect(sync.skippedQuads).to.equal(1);
      const async = s.dumpNamedGraphs([]);
      const all = (await async.nextAsync(1 << 20)) ?? "";
      expect(all.split("\n").sort()).to.deep.equal(["", ...quads.slice(0, 3)]);
      expect(await async.nextAsync(1 << 20)).to.equal(null);
      const closed = s.dumpNamedGraphs([]);
      closed.close();
      expect(closed.next(100)).to.equal(null);
    } finally {
      s.close();
    }
  });

  it("closes a dump at once while a chunk is being read, which then ends", async () => {
    const s = nativeAddon().NativeStore.open(dir);
    try {
      const left = Array.from(
        { length: 100_000 },
        (_, i) => `<urn:s> <urn:p> "${i}" <urn:skip:${i % 100}> .`,
      );
      s.apply([{ op: "insertQuads", graph: "", triples: nt(left.join("\n") + "\n") }]);
      const d = s.dumpNamedGraphs(["urn:skip:"]);
      const pending = d.nextAsync(1 << 20);
      await new Promise((r) => setTimeout(r, 20)); // its thread walks the left-out graphs
      const t0 = performance.now();
      d.close();
      expect(performance.now() - t0, "close waits for no chunk").to.be.lessThan(20);
      expect(await pending).to.equal(null);
      expect(d.skippedQuads).to.be.lessThan(100_000);
    } finally {
      s.close();
    }
  });
});
