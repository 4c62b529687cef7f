import { expect } from "chai";
import { LdesFeed } from "../../../../src/ngsi-ld/ldes/ldes-feed";
import { LdesWindow } from "../../../../src/ngsi-ld/ldes/ldes-window";
import { TemporalIndex } from "../../../../src/ngsi-ld/temporal/temporal-index";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import { CORE_URL, loadContext } from "../codec/local-contexts";

const SPEED = "https://example.org/speed";
const H = 3_600_000;
const MEMBER = "<https://w3id.org/tree#member>";
const iris = {
  stream: "https://x.example/ldes",
  view: "https://x.example/ldes/view",
  page: (start: number, part = 0) => `https://x.example/ldes/pages/${start}${part ? `/${part + 1}` : ""}`,
};

/** `n` entities with one version each, all in the page starting at 10 h. */
function history(n: number): TemporalIndex {
  const index = new TemporalIndex();
  for (let i = 0; i < n; i++) {
    const at = 10 * H + i;
    index.apply({
      op: "put",
      t: "",
      e: `urn:e${i}`,
      at,
      r: [[SPEED, i + 1, at, at, at, i, '{"type":"Property"}']],
    });
  }
  return index;
}

const feedOf = (n: number, pageMembers: number): LdesFeed =>
  new LdesFeed(
    history(n),
    compileContext([loadContext(CORE_URL)]),
    new LdesWindow({ pageMs: H, rawRetentionMs: 0, graceMs: 10_000 }),
    pageMembers,
  );

describe("LDES feed: pages cut by members, serialized a few members per turn", () => {
  it("cuts a page into parts of at most pageMembers, each full part linking the next", async () => {
    const feed = feedOf(250, 100);
    const parts = [];
    for (let p = 0; p < 3; p++) parts.push((await feed.page("", iris, 10 * H, p, 12 * H))!.pieces.join(""));
    expect(parts.map((t) => t.split("\n").filter((l) => l.includes(MEMBER)).length)).to.deep.equal([
      100, 100, 50,
    ]);
    expect(parts[0]).to.contain(`_:next0 <https://w3id.org/tree#node> <${iris.page(10 * H, 1)}>`);
    expect(parts[2]).not.to.contain("_:next0");
    expect(await feed.page("", iris, 10 * H, 3, 12 * H)).to.equal(undefined);
  });

  it("lets the event loop turn between slices of members", async () => {
    const feed = feedOf(200, 500);
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const page = (await feed.page("", iris, 10 * H, 0, 12 * H))!;
    counting = false;
    expect(page.pieces.length).to.equal(1 + 4); // the head, then 4 slices of 50 members
    expect(turns).to.be.at.least(4);
  });
});
