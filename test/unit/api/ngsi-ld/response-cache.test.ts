import { expect } from "chai";
import { ResponseCache } from "../../../../src/api/ngsi-ld/response-cache";

describe("api/NGSI-LD response cache", () => {
  const r = (body: string) => ({ body, contentType: "application/json", link: undefined });
  const commit = (tenant: string, graph: string) => ({
    seq: 1,
    tenant,
    writes: [{ graph, triples: null }],
  });

  it("serves a kept response per tenant, entity and variant, and drops an entity's responses on its commit", () => {
    const c = new ResponseCache();
    c.set("", "urn:a", "v1", r("a1"), c.generation);
    c.set("", "urn:a", "v2", r("a2"), c.generation);
    c.set("t", "urn:a", "v1", r("ta"), c.generation);
    expect(c.get("", "urn:a", "v1")?.body).to.equal("a1");
    expect(c.get("", "urn:a", "v2")?.body).to.equal("a2");
    expect(c.get("t", "urn:a", "v1")?.body).to.equal("ta");
    c.apply(commit("", "urn:a"));
    expect(c.get("", "urn:a", "v1")).to.equal(undefined);
    expect(c.get("t", "urn:a", "v1")?.body).to.equal("ta");
  });

  it("does not keep a response made while a commit arrived, nor after clear()", () => {
    const c = new ResponseCache();
    const g = c.generation;
    c.apply(commit("", "urn:b"));
    c.set("", "urn:a", "v", r("stale?"), g);
    expect(c.get("", "urn:a", "v")).to.equal(undefined);
    c.set("", "urn:a", "v", r("a"), c.generation);
    c.clear();
    expect(c.get("", "urn:a", "v")).to.equal(undefined);
  });

  it("forgets the least recently used entity past its capacity", () => {
    const c = new ResponseCache(2);
    c.set("", "urn:1", "v", r("1"), c.generation);
    c.set("", "urn:2", "v", r("2"), c.generation);
    c.get("", "urn:1", "v");
    c.set("", "urn:3", "v", r("3"), c.generation);
    expect(c.get("", "urn:2", "v")).to.equal(undefined);
    expect(c.get("", "urn:1", "v")?.body).to.equal("1");
  });
});
