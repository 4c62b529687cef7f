import { expect } from "chai";
import { crc32 } from "node:zlib";
import {
  encodeJournalRecord,
  encodeRecord,
  forEachRecord,
  HEADER_BYTES,
  type JournalRecord,
  type SegmentEnd,
} from "../../../../src/store/journal/record-codec";

/** Every record of a segment in a list, with how decoding ended. */
function decodeSegment(buf: Buffer): SegmentEnd & { records: JournalRecord[] } {
  const records: JournalRecord[] = [];
  return { records, ...forEachRecord<JournalRecord>(buf, (r) => records.push(r)) };
}

/** The binary journal record (src/store/journal/binary-record.ts) and its place in a segment. */
describe("store/journal: binary records", () => {
  const rec = {
    seq: 42,
    tenant: "città",
    writes: [
      { graph: "urn:ngsi-ld:Camera:é1", triples: '<urn:a> <urn:p> "quote \\" and ünïcode ☃" .\n' },
      { graph: "urn:gone", triples: null },
      { graph: "urn:empty", triples: "" },
    ],
  };

  it("decodes what it encodes, null and empty graphs and non-ASCII text included", () => {
    const seg = decodeSegment(encodeJournalRecord(rec));
    expect(seg.damage).to.equal(undefined);
    expect(seg.records).to.deep.equal([rec]);
  });

  it("reads JSON records (older journals) and binary ones in the same segment, in order", () => {
    const older = {
      seq: 41,
      tenant: "",
      writes: [{ graph: "urn:x", triples: "<urn:x> <urn:p> <urn:o> .\n" }],
    };
    const buf = Buffer.concat([encodeRecord(older), encodeJournalRecord(rec)]);
    expect(decodeSegment(buf).records).to.deep.equal([older, rec]);
  });

  it("reports a binary record cut short as a torn tail, keeping the records before it", () => {
    const whole = encodeJournalRecord({ ...rec, seq: 1 });
    const next = encodeJournalRecord({ ...rec, seq: 2 });
    const seg = decodeSegment(Buffer.concat([whole, next.subarray(0, next.length - 5)]));
    expect(seg.records.map((r) => r.seq)).to.deep.equal([1]);
    expect(seg.validBytes).to.equal(whole.length);
    expect(seg.damage).to.include({ torn: true, reason: "truncated record" });
  });

  it("refuses a binary payload whose lengths disagree even when its checksum is right", () => {
    const bad = encodeJournalRecord(rec);
    bad.writeUInt32LE(0xfffffff0, HEADER_BYTES + 1 + 8); // tenant length past the end
    bad.writeUInt32LE(crc32(bad.subarray(HEADER_BYTES)), 4);
    const seg = decodeSegment(bad);
    expect(seg.records).to.deep.equal([]);
    expect(seg.damage).to.include({ reason: "unreadable payload" });
  });

  it("hands records over one at a time, in order, as they are decoded, then reports the damage", () => {
    const one = encodeJournalRecord({ ...rec, seq: 1 });
    const two = encodeJournalRecord({ ...rec, seq: 2 });
    const bad = Buffer.from(encodeJournalRecord({ ...rec, seq: 3 }));
    bad[bad.length - 1] ^= 0xff; // checksum mismatch
    const seen: number[] = [];
    const end = forEachRecord<{ seq: number }>(Buffer.concat([one, two, bad]), (r) => {
      // the second record is not decoded before the first has been handed over
      expect(r.seq).to.equal(seen.length + 1);
      seen.push(r.seq);
    });
    expect(seen).to.deep.equal([1, 2]);
    expect(end.validBytes).to.equal(one.length + two.length);
    expect(end.damage).to.include({ reason: "checksum mismatch", torn: true });
  });
});
