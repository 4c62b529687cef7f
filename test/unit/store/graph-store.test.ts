import { expect } from "chai";
import { AppError } from "../../../src/errors";
import type { CommitEvent, GraphStore } from "../../../src/store/graph-store";
import { entityTriples, normalized, withTempStore } from "./helpers";

describe("store/graph store: commit, read, select", () => {
  let store: GraphStore;
  withTempStore((s) => (store = s), true);

  it("reads back what was committed, and null for a graph that does not exist", async () => {
    const seq = await store.commit("", [{ graph: "urn:cam:1", triples: entityTriples("urn:cam:1", "a") }]);
    expect(seq).to.equal(1);
    const [g, missing] = await store.readGraphs("", ["urn:cam:1", "urn:cam:404"]);
    expect(normalized(g)).to.deep.equal(normalized(entityTriples("urn:cam:1", "a")));
    expect(missing).to.equal(null);
  });

  it("replaces the whole graph on a write, and drops it on null", async () => {
    await store.commit("", [{ graph: "urn:cam:1", triples: entityTriples("urn:cam:1", "old", 3) }]);
    await store.commit("", [{ graph: "urn:cam:1", triples: entityTriples("urn:cam:1", "new", 1) }]);
    const [g] = await store.readGraphs("", ["urn:cam:1"]);
    expect(normalized(g)).to.deep.equal(normalized(entityTriples("urn:cam:1", "new", 1)));
    expect(g).not.to.contain("old");
    await store.commit("", [{ graph: "urn:cam:1", triples: null }]);
    expect(await store.readGraphs("", ["urn:cam:1"])).to.deep.equal([null]);
    expect((await store.stats()).quads).to.equal(0);
  });

  it("keeps blank nodes of different graphs apart even when their labels are equal", async () => {
    await store.commit("", [
      { graph: "urn:cam:1", triples: entityTriples("urn:cam:1", "one", 1) },
      { graph: "urn:cam:2", triples: entityTriples("urn:cam:2", "two", 1) },
    ]);
    const rows = await store.select(
      "",
      "SELECT ?e ?v WHERE { GRAPH ?g { ?e <urn:test:attr0> ?n . ?n ?p ?v } }",
    );
    const pairs = rows.map((r) => `${r.e} ${r.v}`).sort();
    expect(pairs).to.deep.equal(['<urn:cam:1> "one-0"', '<urn:cam:2> "two-0"']);
  });

  it("answers SELECT rows as N-Triples terms and ASK as a solution sequence", async () => {
    const triples =
      '<urn:a> <urn:p> "10"^^<http://www.w3.org/2001/XMLSchema#integer> .\n<urn:a> <urn:q> "x"@vi .\n';
    await store.commit("", [{ graph: "urn:a", triples }]);
    const rows = await store.select("", "SELECT ?o WHERE { GRAPH <urn:a> { <urn:a> ?p ?o } } ORDER BY ?p");
    expect(rows).to.deep.equal([{ o: '"10"^^<http://www.w3.org/2001/XMLSchema#integer>' }, { o: '"x"@vi' }]);
    expect(await store.select("", "ASK { GRAPH ?g { <urn:a> <urn:p> ?o } }")).to.deep.equal([{}]);
    expect(await store.select("", "ASK { GRAPH ?g { <urn:a> <urn:zzz> ?o } }")).to.deep.equal([]);
    // union default graph is off: the default graph holds the plain view (the entity's own value triples)
    const plain = await store.select("", "SELECT ?p WHERE { <urn:a> ?p ?o } ORDER BY ?p");
    expect(plain).to.deep.equal([{ p: "<urn:p>" }, { p: "<urn:q>" }]);
  });

  it("refuses bad SPARQL and non-SELECT forms with BadRequestData", async () => {
    const e1 = await store.select("", "SELEKT nothing").catch((e: unknown) => e);
    expect(e1).to.be.instanceOf(AppError).and.have.property("kind", "BadRequestData");
    const e2 = await store.select("", "CONSTRUCT WHERE { ?s ?p ?o }").catch((e: unknown) => e);
    expect(e2).to.be.instanceOf(AppError).and.have.property("kind", "BadRequestData");
  });

  it("keeps tenants isolated, SPARQL included", async () => {
    await store.commit("", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "default" .\n' }]);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    expect(await store.readGraphs("", ["urn:x"])).to.deep.equal(['<urn:x> <urn:p> "default" .\n']);
    expect(await store.readGraphs("acme", ["urn:x"])).to.deep.equal(['<urn:x> <urn:p> "acme" .\n']);
    expect(await store.readGraphs("other", ["urn:x"])).to.deep.equal([null]);
    const rows = await store.select("acme", "SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }");
    expect(rows).to.deep.equal([{ o: '"acme"' }]);
    expect((await store.tenants()).sort()).to.deep.equal(["", "acme"]);
  });

  it("applies a commit atomically: a bad write rejects it with nothing applied", async () => {
    await store.commit("", [{ graph: "urn:a", triples: '<urn:a> <urn:p> "before" .\n' }]);
    const err = await store
      .commit("", [
        { graph: "urn:a", triples: '<urn:a> <urn:p> "after" .\n' },
        { graph: "urn:b", triples: '<urn:b> <urn:p> "new" .\n' },
        { graph: "urn:c", triples: "this is not N-Triples\n" },
      ])
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(AppError).and.have.property("kind", "BadRequestData");
    expect(await store.readGraphs("", ["urn:a", "urn:b", "urn:c"])).to.deep.equal([
      '<urn:a> <urn:p> "before" .\n',
      null,
      null,
    ]);
    expect((await store.stats()).lastSeq).to.equal(1);
    const bad = await store.commit("", [{ graph: "urn:a> <x", triples: null }]).catch((e: unknown) => e);
    expect(bad).to.be.instanceOf(AppError).and.have.property("kind", "BadRequestData");
  });

  it("tells listeners every commit after it is durable, in seq order, with its writes", async () => {
    const events: CommitEvent[] = [];
    const off = store.onCommit((e) => events.push(e));
    const seqs = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.commit("", [{ graph: `urn:e:${i}`, triples: `<urn:e:${i}> <urn:p> "${i}" .\n` }]),
      ),
    );
    expect(seqs).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(events.map((e) => e.seq)).to.deep.equal(seqs);
    expect(events.map((e) => e.writes[0].graph)).to.deep.equal(
      Array.from({ length: 50 }, (_, i) => `urn:e:${i}`),
    );
    expect(events[3].writes).to.deep.equal([{ graph: "urn:e:3", triples: '<urn:e:3> <urn:p> "3" .\n' }]);
    off();
    await store.commit("", [{ graph: "urn:z", triples: null }]);
    expect(events).to.have.length(50);
  });

  it("reports health and stats", async () => {
    await store.commit("", [{ graph: "urn:a", triples: entityTriples("urn:a", 1) }]);
    expect(await store.health()).to.include({ ok: true, journalWritable: true });
    const st = await store.stats();
    expect(st).to.include({ tenants: 1, lastSeq: 1 });
    expect(st.quads).to.be.greaterThan(0);
    expect(st.capacityUsed).to.be.within(0, 1);
    expect(st.journalBytes).to.be.greaterThan(0);
  });
});
