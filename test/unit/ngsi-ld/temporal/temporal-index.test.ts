import { expect } from "chai";
import type { HistoryRecord, RowTuple } from "../../../../src/ngsi-ld/temporal/history-record";
import { TemporalIndex } from "../../../../src/ngsi-ld/temporal/temporal-index";

const SPEED = "https://example.org/speed";
const row = (iid: number, value: number, js?: number): RowTuple => {
  const t: RowTuple = [SPEED, iid, 1000 * iid, 5, 5, value, '{"type":"Property"}'];
  if (js !== undefined) t[7] = js;
  return t;
};
const put = (e: string, r: RowTuple[]): HistoryRecord => ({ op: "put", t: "", e, ty: ["T"], at: 5, r });
const values = (index: TemporalIndex, e: string) => {
  const s = index.entity("", e)?.attrs.get(SPEED);
  return s ? Array.from({ length: s.length }, (_, i) => s.num(i)) : undefined;
};

describe("temporal index: instances keep the journal seq of the write that made them", () => {
  it("drops the instances of writes after a journal seq, and entities left without history", () => {
    const index = new TemporalIndex();
    index.apply(put("urn:a", [row(1, 10, 1), row(2, 20)])); // 20: a temporal API write, no journal seq
    index.apply(put("urn:a", [row(3, 30, 2)]));
    index.apply(put("urn:b", [row(4, 40, 3)]));
    expect(index.lastJournalSeq).to.equal(3);
    expect(index.dropJournaledAfter(3)).to.deep.equal({ instances: 0, entities: 0 });
    expect(index.dropJournaledAfter(1)).to.deep.equal({ instances: 2, entities: 1 });
    expect(values(index, "urn:a")).to.deep.equal([10, 20]);
    expect(index.entity("", "urn:b")).to.equal(undefined);
    expect(index.lastJournalSeq).to.equal(1);
  });

  it("keeps the journal seqs through a compaction snapshot", () => {
    const index = new TemporalIndex();
    index.apply(put("urn:a", [row(1, 10, 7), row(2, 20), row(3, 30, 9)]));
    const copy = new TemporalIndex();
    for (const r of index.snapshot()) copy.apply(r);
    expect(copy.lastJournalSeq).to.equal(9);
    copy.dropJournaledAfter(8);
    expect(values(copy, "urn:a")).to.deep.equal([10, 20]);
  });
});
