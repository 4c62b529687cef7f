import { expect } from "chai";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import {
  commitRecordWrites,
  encodeCommitRecord,
  encodeJournalRecord,
  forEachRecord,
  type JournalRecord,
  sealJournalRecord,
} from "../../../../src/store/journal/record-codec";
import { lineCount } from "../../../../src/store/worker/ntriples-text";

/**
 * The commit as it crosses to the store worker (record-codec.ts encodeCommitRecord): the journal record
 * without seq, transferred, read as byte views and sealed in place (docs/decisions/0001-write-path.md).
 */
describe("store/journal: commit records sent to the worker", () => {
  const tenant = "città";
  const writes = [
    {
      graph: "urn:ngsi-ld:Camera:é1",
      triples: '<urn:a> <urn:p> "quote \\" and ünïcode ☃" .\n<urn:a> <urn:q> _:b0 .\n',
    },
    { graph: "urn:gone", triples: null },
    { graph: "urn:empty", triples: "" },
  ];

  it("owns its ArrayBuffer, so that postMessage can transfer it", () => {
    const r = encodeCommitRecord(tenant, writes);
    expect(r.byteOffset).to.equal(0);
    expect(r.buffer.byteLength).to.equal(r.length);
  });

  it("gives the tenant, graph names and N-Triples as UTF-8 views of the record", () => {
    const r = encodeCommitRecord(tenant, writes);
    const got = commitRecordWrites(r);
    expect(got.tenant).to.equal(tenant);
    expect(got.writes.map((w) => w.graph)).to.deep.equal(writes.map((w) => w.graph));
    const t = got.writes.map((w) => (w.triples === null ? null : Buffer.from(w.triples).toString("utf8")));
    expect(t).to.deep.equal(writes.map((w) => w.triples));
    const view = got.writes[0].triples as Uint8Array;
    expect(view.buffer).to.equal(r.buffer); // a view, not a copy
    expect(lineCount(view)).to.equal(2);
  });

  it("once sealed is byte for byte the journal record of the same commit, and decodes as one", () => {
    const sealed = sealJournalRecord(encodeCommitRecord(tenant, writes), 7);
    const rec: JournalRecord = { seq: 7, tenant, writes };
    expect(sealed.equals(encodeJournalRecord(rec))).to.equal(true);
    const seen: JournalRecord[] = [];
    expect(forEachRecord<JournalRecord>(sealed, (x) => seen.push(x)).damage).to.equal(undefined);
    expect(seen).to.deep.equal([rec]);
  });

  it("survives a transfer through postMessage and is sealed on the other side", () => {
    const { port1, port2 } = new MessageChannel();
    const r = encodeCommitRecord(tenant, writes);
    port1.postMessage({ record: r }, [r.buffer as ArrayBuffer]);
    expect(r.length).to.equal(0); // detached here: moved, not copied
    const got = receiveMessageOnPort(port2)?.message as { record: Uint8Array };
    port1.close();
    const record = Buffer.from(got.record.buffer, got.record.byteOffset, got.record.byteLength);
    expect(commitRecordWrites(record).tenant).to.equal(tenant);
    expect(sealJournalRecord(record, 3).equals(encodeJournalRecord({ seq: 3, tenant, writes }))).to.equal(
      true,
    );
  });

  it("refuses bytes that are not a binary commit record", () => {
    expect(() => commitRecordWrites(Buffer.from("{}"))).to.throw(RangeError);
    const cut = encodeCommitRecord(tenant, writes);
    expect(() => commitRecordWrites(cut.subarray(0, cut.length - 3))).to.throw(RangeError);
  });

  it("counts lines of bytes as of text, with or without a final newline", () => {
    for (const s of ["", "a .\n", "a .\nb .", "a .\nb .\n", "☃ .\n\n"])
      expect(lineCount(Buffer.from(s))).to.equal(lineCount(s));
  });
});
