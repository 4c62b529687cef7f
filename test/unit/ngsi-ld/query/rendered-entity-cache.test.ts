import { expect } from "chai";
import { RenderedEntityCache } from "../../../../src/ngsi-ld/query/rendered-entity-cache";
import type { CompiledContext } from "../../../../src/rdf/contexts/compiled-context";

describe("ngsi-ld/query rendered entity cache", () => {
  const commit = (tenant: string, graph: string) => ({
    seq: 1,
    tenant,
    writes: [{ graph, triples: null }],
  });
  const ctxA = {} as CompiledContext;
  const ctxB = {} as CompiledContext;

  it("numbers representations per context and options, the same pair always alike", () => {
    const c = new RenderedEntityCache(1e6);
    const a = c.variant(ctxA, "k1");
    expect(c.variant(ctxA, "k1")).to.equal(a);
    expect(c.variant(ctxA, "k2")).to.not.equal(a);
    expect(c.variant(ctxB, "k1")).to.not.equal(a);
  });

  it("serves a text per tenant, entity and representation; a commit to the entity drops its texts", () => {
    const c = new RenderedEntityCache(1e6);
    c.set("", "urn:a", 0, Buffer.from('{"id":"urn:a"}'), c.generation);
    c.set("", "urn:a", 1, Buffer.from('{"id":"urn:a","k":1}'), c.generation);
    c.set("t", "urn:a", 0, Buffer.from('{"id":"urn:a","t":1}'), c.generation);
    expect(c.get("", "urn:a", 0)?.toString()).to.equal('{"id":"urn:a"}');
    expect(c.get("", "urn:a", 1)?.toString()).to.equal('{"id":"urn:a","k":1}');
    expect(c.get("t", "urn:a", 0)?.toString()).to.equal('{"id":"urn:a","t":1}');
    const before = c.usedBytes;
    c.apply(commit("", "urn:a"));
    expect(c.get("", "urn:a", 0)).to.equal(undefined);
    expect(c.get("", "urn:a", 1)).to.equal(undefined);
    expect(c.get("t", "urn:a", 0)?.toString()).to.equal('{"id":"urn:a","t":1}');
    expect(c.usedBytes).to.be.below(before).and.above(0);
  });

  it("does not keep a text made while a commit landed, nor after clear()", () => {
    const c = new RenderedEntityCache(1e6);
    const g = c.generation;
    c.apply(commit("", "urn:other"));
    c.set("", "urn:a", 0, Buffer.from("stale?"), g);
    expect(c.get("", "urn:a", 0)).to.equal(undefined);
    c.set("", "urn:a", 0, Buffer.from("fresh"), c.generation);
    expect(c.get("", "urn:a", 0)?.toString()).to.equal("fresh");
    c.clear();
    expect(c.get("", "urn:a", 0)).to.equal(undefined);
    expect(c.usedBytes).to.equal(0);
  });

  it("stays within its byte budget, the least recently used entities out first", () => {
    const text = "x".repeat(1000);
    const c = new RenderedEntityCache(4000);
    c.set("", "urn:1", 0, Buffer.from(text), c.generation);
    c.set("", "urn:2", 0, Buffer.from(text), c.generation);
    c.set("", "urn:3", 0, Buffer.from(text), c.generation);
    c.get("", "urn:1", 0);
    c.set("", "urn:4", 0, Buffer.from(text), c.generation);
    expect(c.usedBytes).to.be.at.most(4000);
    expect(c.get("", "urn:2", 0)).to.equal(undefined);
    expect(c.get("", "urn:1", 0)?.toString()).to.equal(text);
    expect(c.get("", "urn:4", 0)?.toString()).to.equal(text);
    expect(c.size).to.equal(3);
  });

  it("remembers nothing with a budget of 0", () => {
    const c = new RenderedEntityCache(0);
    c.set("", "urn:1", 0, Buffer.from("{}"), c.generation);
    expect(c.get("", "urn:1", 0)).to.equal(undefined);
    expect(c.size).to.equal(0);
  });
});
