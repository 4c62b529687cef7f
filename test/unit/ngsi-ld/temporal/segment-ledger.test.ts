import { expect } from "chai";
import type { HistoryRecord, RowTuple } from "../../../../src/ngsi-ld/temporal/history-record";
import { segmentTriples } from "../../../../src/ngsi-ld/temporal/segment-graph";
import { SEGMENT_MS } from "../../../../src/ngsi-ld/temporal/segment-ledger";
import { TemporalIndex } from "../../../../src/ngsi-ld/temporal/temporal-index";

const H = Date.parse("2024-01-01T08:00:00Z");
const A = "https://example.org/speed";
const row = (iid: number, t: number, v: number | null, rest = '{"type":"Property"}'): RowTuple => [
  A,
  iid,
  t,
  t,
  t,
  v,
  rest,
];
const put = (r: RowTuple[]): HistoryRecord => ({ op: "put", t: "", e: "urn:e:1", at: 1, r });
const dirty = (ix: TemporalIndex) => [...ix.ledger.dirty()].map((d) => [d.start, d.v]);

describe("temporal: segment ledger and segment graph", () => {
  it("marks the hours a change touches, and a seal clears only the version it read", () => {
    const ix = new TemporalIndex();
    ix.apply(put([row(1, H, 1), row(2, H + 60_000, 2), row(3, H + SEGMENT_MS, 3)]));
    expect(dirty(ix)).to.deep.equal([
      [H, 2],
      [H + SEGMENT_MS, 1],
    ]);
    ix.apply({ op: "seal", t: "", e: "urn:e:1", h: H, v: 1 }); // read before the second row: still dirty
    expect(dirty(ix)).to.deep.equal([
      [H, 2],
      [H + SEGMENT_MS, 1],
    ]);
    ix.apply({ op: "seal", t: "", e: "urn:e:1", h: H, v: 2 });
    expect(dirty(ix)).to.deep.equal([[H + SEGMENT_MS, 1]]);
    ix.apply(put([row(4, H + 120_000, 4)])); // a late instance: the sealed hour is dirty again
    ix.apply({ op: "seal", t: "", e: "urn:e:1", h: H, v: 2 }); // a seal read before it does not count
    expect(dirty(ix)).to.deep.equal([
      [H + SEGMENT_MS, 1],
      [H, 1],
    ]);
    ix.apply({ op: "delInst", t: "", e: "urn:e:1", a: A, n: 3 });
    expect(dirty(ix)).to.deep.equal([
      [H + SEGMENT_MS, 2],
      [H, 1],
    ]);
  });

  it("a log snapshot replays to the same dirty hours, and retention touches what it drops", () => {
    const ix = new TemporalIndex();
    ix.apply(put([row(1, H, 1), row(2, H + SEGMENT_MS, 3)]));
    ix.apply({ op: "seal", t: "", e: "urn:e:1", h: H, v: 1 });
    ix.apply(put([row(3, H + SEGMENT_MS + 1, 5)]));
    const copy = new TemporalIndex();
    for (const r of ix.snapshot()) copy.apply(r);
    expect(dirty(copy)).to.deep.equal(dirty(ix));
    expect(dirty(copy)).to.deep.equal([[H + SEGMENT_MS, 2]]);
    copy.apply({ op: "seal", t: "", e: "urn:e:1", h: H + SEGMENT_MS, v: 2 });
    expect(dirty(copy)).to.deep.equal([]);
    copy.apply({ op: "roll", t: "", e: "urn:e:1", raw: 0, hour: 0, drop: H + SEGMENT_MS });
    expect(dirty(copy)).to.deep.equal([[H, 1]]);
    expect(segmentTriples(copy, copy.entity("", "urn:e:1")!, H)).to.equal(null);
  });

  it("writes one segment: entity, start, end, count, the hourly avg of the default instances, the instances", () => {
    const ix = new TemporalIndex();
    ix.apply(
      put([
        row(1, H, 10),
        row(2, H + 600_000, 20),
        row(3, H + 900_000, 99, '{"type":"Property","datasetId":"urn:ds:1"}'),
        row(4, H + 1_200_000, null, '{"type":"Property","value":"n/a"}'),
      ]),
    );
    const nt = segmentTriples(ix, ix.entity("", "urn:e:1")!, H)!;
    const g = "<urn:citygraph:history:2024-01-01T08:00:00Z:urn:e:1>";
    const lines = nt.trimEnd().split("\n");
    expect(lines.slice(0, 5)).to.deep.equal([
      `${g} <https://w3id.org/citygraph/history#entity> <urn:e:1> .`,
      `${g} <https://w3id.org/citygraph/history#start> "2024-01-01T08:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`,
      `${g} <https://w3id.org/citygraph/history#end> "2024-01-01T09:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`,
      `${g} <https://w3id.org/citygraph/history#count> "4"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
      `${g} <${A}> "15"^^<http://www.w3.org/2001/XMLSchema#double> .`,
    ]);
    const json = /"(\{.*\})"\^\^<http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#JSON> \.$/.exec(lines[5])!;
    const seg = JSON.parse(JSON.parse(`"${json[1]}"`) as string) as {
      templates: unknown[];
      attrs: { n: number[]; o: number[]; c: number[]; m?: number[]; v: (number | null)[]; t: number[] }[];
    };
    // n, o and c delta-encoded; m left out (modifiedAt = createdAt everywhere)
    expect(seg.attrs[0].n).to.deep.equal([1, 1, 1, 1]);
    expect(seg.attrs[0].o).to.deep.equal([0, 600_000, 300_000, 300_000]);
    expect(seg.attrs[0].c).to.deep.equal([0, 600_000, 300_000, 300_000]);
    expect(seg.attrs[0].m).to.equal(undefined);
    expect(seg.attrs[0].v).to.deep.equal([10, 20, 99, null]);
    expect(seg.attrs[0].t.map((k) => seg.templates[k])).to.deep.equal([
      { type: "Property" },
      { type: "Property" },
      { type: "Property", datasetId: "urn:ds:1" },
      { type: "Property", value: "n/a" },
    ]);
  });
});
