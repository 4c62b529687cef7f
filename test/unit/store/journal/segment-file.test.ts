import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { encodeJournalRecord, encodeRecord, forEachRecord } from "../../../../src/store/journal/record-codec";
import { forEachRecordInFile } from "../../../../src/store/journal/segment-file";

/** Decoding a segment file a window at a time (src/store/journal/segment-file.ts) = decoding it whole. */
describe("store/journal: segment files read a window at a time", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-segfile-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const records = Array.from({ length: 20 }, (_, i) => ({
    seq: i + 1,
    tenant: i % 3 ? "" : "acme",
    writes: [{ graph: `urn:e:${i}`, triples: `<urn:e:${i}> <urn:p> "${"v".repeat(i * 7)}" .\n` }],
  }));
  const whole = Buffer.concat(records.map((r, i) => (i % 2 ? encodeJournalRecord(r) : encodeRecord(r))));

  /** Both ways over `bytes`, with a window smaller than most records. */
  function both(bytes: Buffer): { inFile: unknown; inMemory: unknown } {
    const file = path.join(dir, "journal-0000000000000001.log");
    fs.writeFileSync(file, bytes);
    const a: unknown[] = [];
    const b: unknown[] = [];
    const inFile = { ...forEachRecordInFile(file, (r) => a.push(r), 37), records: a };
    const inMemory = { ...forEachRecord(bytes, (r) => b.push(r)), records: b, fileBytes: bytes.length };
    return { inFile, inMemory };
  }

  it("hands over the same records, in order, across window boundaries", () => {
    const { inFile, inMemory } = both(whole);
    expect(inFile).to.deep.equal(inMemory);
    expect((inFile as { records: unknown[] }).records).to.deep.equal(records);
  });

  it("classifies a torn tail and damage in the middle the same way", () => {
    const torn = both(Buffer.concat([whole, whole.subarray(0, 30)]));
    expect(torn.inFile).to.deep.equal(torn.inMemory);
    expect(torn.inFile).to.deep.include({ validBytes: whole.length });
    // zeros after the last record: the unused part of a preallocated segment, no damage
    const zeros = both(Buffer.concat([whole, Buffer.alloc(200)]));
    expect(zeros.inFile).to.deep.equal(zeros.inMemory);
    expect(zeros.inFile).to.deep.include({ validBytes: whole.length, zeroBytes: 200 });
    expect(zeros.inFile).to.not.have.property("damage");
    expect((zeros.inFile as { records: unknown[] }).records).to.deep.equal(records);
    // a record cut by a crash in a preallocated segment: a prefix of it, then the zeros written ahead
    const cut = both(Buffer.concat([whole, whole.subarray(0, 30), Buffer.alloc(200)]));
    expect(cut.inFile).to.deep.equal(cut.inMemory);
    expect(cut.inFile).to.deep.include({ validBytes: whole.length });
    expect((cut.inFile as { damage: { torn: boolean } }).damage.torn).to.equal(true);
    const middle = Buffer.from(whole);
    middle[100] ^= 0xff;
    const bad = both(middle);
    expect(bad.inFile).to.deep.equal(bad.inMemory);
    expect((bad.inFile as { damage: { torn: boolean } }).damage.torn).to.equal(false);
  });
});
