import { expect } from "chai";
import type { HistoryRecord, RowTuple } from "../../../../src/ngsi-ld/temporal/history-record";
import { SEGMENT_MS } from "../../../../src/ngsi-ld/temporal/segment-ledger";
import { SegmentSealer } from "../../../../src/ngsi-ld/temporal/segment-sealer";
import { TemporalIndex } from "../../../../src/ngsi-ld/temporal/temporal-index";

const H = Date.parse("2024-01-01T08:00:00Z");
const A = "https://example.org/speed";
const row = (iid: number, t: number): RowTuple => [A, iid, t, t, t, iid, '{"type":"Property"}'];

/** An index with `n` entities, each with one instance in hour H (all dirty), and a sealer over it. */
function setup(n: number) {
  const ix = new TemporalIndex();
  for (let i = 0; i < n; i++) ix.apply({ op: "put", t: "", e: `urn:e:${i}`, at: 1, r: [row(i + 1, H)] });
  const commits: string[][] = [];
  const sealer = new SegmentSealer(ix, {
    store: {
      commit: async (_tenant, writes) => {
        commits.push(writes.map((w) => w.graph));
        return Promise.resolve({}) as never;
      },
    },
    record: async (r: HistoryRecord) => ix.apply(r),
    everyMs: 60_000,
    graceMs: 300_000,
  });
  const dirty = () => [...ix.ledger.dirty()].length;
  return { sealer, commits, dirty };
}

describe("temporal: segment sealer (issue 5 history in the graph)", () => {
  it("seals open hours only when forced, and clears them once the seal is recorded", async () => {
    const { sealer, commits, dirty } = setup(3);
    expect(await sealer.sweep(false, H + SEGMENT_MS / 2)).to.equal(0); // the hour is still open
    expect(dirty()).to.equal(3);
    expect(await sealer.sweep(true, H + SEGMENT_MS / 2)).to.equal(3);
    expect(commits.flat()).to.have.length(3);
    expect(dirty()).to.equal(0);
  });

  it("stops between batches at the deadline and leaves the rest dirty (shutdown budget)", async () => {
    const { sealer, dirty } = setup(600); // 256 segments per batch: three batches
    expect(await sealer.sweep(true, H, 0)).to.equal(0); // deadline already passed
    expect(dirty()).to.equal(600);
    await sealer.close(); // within the budget: everything
    expect(dirty()).to.equal(0);
  });
});
