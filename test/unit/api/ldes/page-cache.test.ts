import { expect } from "chai";
import { PageCache } from "../../../../src/api/ldes/page-cache";
import type { LdesBody } from "../../../../src/api/ldes/ldes-format";

const body = (bytes: number): LdesBody => ({
  body: Buffer.alloc(bytes),
  mediaType: "text/turtle",
  etag: '"x"',
});

describe("LDES page cache: bounded by bytes", () => {
  it("drops the least recently used pages once the bytes pass the budget", () => {
    const c = new PageCache(1000);
    c.set("a", body(400));
    c.set("b", body(400));
    c.get("a"); // a is now the most recently used
    c.set("c", body(400));
    expect([c.get("a"), c.get("b"), c.get("c")].map((b) => b !== undefined)).to.deep.equal([
      true,
      false,
      true,
    ]);
    expect(c.bytes).to.equal(800);
  });

  it("counts a gzip form made later, and keeps no page larger than the budget", () => {
    const c = new PageCache(1000);
    const a = body(600);
    c.set("a", a);
    c.set("b", body(300));
    c.get("a"); // sent again, now with its gzip form
    a.gzip = Buffer.alloc(200);
    c.grew("a", 600);
    expect(c.get("b")).to.equal(undefined);
    expect(c.bytes).to.equal(800);
    c.set("big", body(5000));
    expect(c.get("big")).to.equal(undefined);
    expect(c.bytes).to.equal(0);
  });
});
