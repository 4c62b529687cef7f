import { expect } from "chai";
import type { RowTuple } from "../../../../src/ngsi-ld/temporal/history-record";
import { TemporalIndex } from "../../../../src/ngsi-ld/temporal/temporal-index";
import { pagesWithVersions, versionsIn } from "../../../../src/ngsi-ld/ldes/entity-versions";
import { LdesWindow } from "../../../../src/ngsi-ld/ldes/ldes-window";

const SPEED = "https://example.org/speed";
const FLOW = "https://example.org/flow";
const H = 3_600_000;
/** An instance of `attr` observed at `obs`, written (modifiedAt) at `mod`. */
const row = (attr: string, iid: number, obs: number, mod: number, v: number): RowTuple => [
  attr,
  iid,
  obs,
  mod,
  mod,
  v,
  '{"type":"Property"}',
];

function history(): TemporalIndex {
  const index = new TemporalIndex();
  index.apply({ op: "put", t: "", e: "urn:b", at: 10 * H, r: [row(SPEED, 1, 10 * H, 10 * H, 1)] });
  index.apply({
    op: "put",
    t: "",
    e: "urn:a",
    at: 10 * H,
    r: [row(SPEED, 2, 10 * H, 10 * H, 2), row(FLOW, 3, 10 * H, 10 * H, 3)],
  });
  index.apply({ op: "put", t: "", e: "urn:a", at: 11 * H, r: [row(SPEED, 4, 11 * H, 11 * H + 5, 4)] });
  // observed 8 hours before it was written: older than the margin of its page
  index.apply({ op: "put", t: "", e: "urn:c", at: 11 * H, r: [row(SPEED, 5, 3 * H, 11 * H + 9, 5)] });
  return index;
}

describe("LDES: entity versions from the temporal history", () => {
  it("groups each entity's instances by modifiedAt, ordered by time then entity id", () => {
    const v = versionsIn(history(), "", { from: 10 * H, to: 12 * H, minTime: -Infinity });
    expect(v.map((x) => [x.entityId, x.at])).to.deep.equal([
      ["urn:a", 10 * H],
      ["urn:b", 10 * H],
      ["urn:a", 11 * H + 5],
      ["urn:c", 11 * H + 9],
    ]);
    expect(v[0].attrs.map((a) => [a.attr, a.rows.length])).to.deep.equal([
      [FLOW, 1],
      [SPEED, 1],
    ]);
  });

  it("leaves out instances observed longer than the margin before their page, and lists the pages", () => {
    const w = new LdesWindow({ pageMs: H, rawRetentionMs: 2 * 24 * H, graceMs: 10_000 });
    const v = versionsIn(history(), "", { from: 11 * H, to: 12 * H, minTime: w.minTime(11 * H) });
    expect(v.map((x) => x.entityId)).to.deep.equal(["urn:a"]);
    const pages = pagesWithVersions(
      history(),
      "",
      0,
      (t) => w.pageOf(t),
      (p) => w.minTime(p),
    );
    expect(pages).to.deep.equal([10 * H, 11 * H]);
  });
});

describe("LDES: the time window of the pages", () => {
  const w = new LdesWindow({ pageMs: H, rawRetentionMs: 48 * H, graceMs: 10_000 });

  it("closes a page a grace after its end", () => {
    expect(w.pageOf(10 * H + 123)).to.equal(10 * H);
    expect(w.closed(10 * H, 11 * H + 9_999)).to.equal(false);
    expect(w.closed(10 * H, 11 * H + 10_000)).to.equal(true);
  });

  it("serves a page only while retention keeps every instance it took", () => {
    const now = 100 * H + 1234;
    const first = w.firstPage(now);
    const cut = Math.floor((now - 48 * H) / H) * H; // the raw cut of the retention pass at `now`
    expect(w.minTime(first)).to.be.at.least(cut);
    expect(w.minTime(first - H)).to.be.below(cut);
    expect(w.retention()).to.equal(`PT${(48 - 6 - 2 - 1) * 3600}S`);
    const keepAll = new LdesWindow({ pageMs: H, rawRetentionMs: 0, graceMs: 0 });
    expect(keepAll.firstPage(now)).to.equal(-Infinity);
    expect(keepAll.retention()).to.equal(undefined);
  });
});
