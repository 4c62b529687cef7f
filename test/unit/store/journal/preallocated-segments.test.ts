import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { HistoryLog } from "../../../../src/store/history/history-log";
import { listSegments } from "../../../../src/store/journal/journal-files";
import { replayJournal } from "../../../../src/store/journal/journal-replay";
import { JournalWriter } from "../../../../src/store/journal/journal-writer";
import { PREALLOCATE_BYTES, Preallocation } from "../../../../src/store/journal/preallocation";
import {
  encodeJournalRecord,
  encodeRecord,
  type JournalRecord,
} from "../../../../src/store/journal/record-codec";

const rec = (seq: number): JournalRecord => ({
  seq,
  tenant: "",
  writes: [{ graph: `urn:e:${seq}`, triples: `<urn:e:${seq}> <urn:p> "${"v".repeat(seq * 50)}" .\n` }],
});

/** The seqs replayJournal hands over from `dir`, and its scan. */
function replay(dir: string): { seqs: number[]; scan: ReturnType<typeof replayJournal> } {
  const seqs: number[] = [];
  const scan = replayJournal(dir, 0, (r) => seqs.push(r.seq));
  return { seqs, scan };
}

const sizeOf = (file: string): number => fs.statSync(file).size;

/** A copy of `dir` as it is now: what kill -9 of the writer's process would leave (zeros included). */
function crashImage(dir: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-prealloc-image-"));
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Preallocated segments (src/store/journal/preallocation.ts): zeros ahead of the records, overwritten in place. */
describe("store/journal: preallocated segments", () => {
  let dir: string;
  const images: string[] = [];
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-prealloc-"))));
  afterEach(() => {
    for (const d of [dir, ...images.splice(0)]) fs.rmSync(d, { recursive: true, force: true });
  });
  const image = (): string => {
    const d = crashImage(dir);
    images.push(d);
    return d;
  };

  /** Appends records `from..to` (seq) to `w` and waits for them. */
  const append = (w: JournalWriter, from: number, to: number): Promise<void[]> =>
    Promise.all(
      Array.from({ length: to - from + 1 }, (_, i) => w.append(encodeJournalRecord(rec(from + i)))),
    );
  const bytesOf = (from: number, to: number): number =>
    Array.from({ length: to - from + 1 }, (_, i) => encodeJournalRecord(rec(from + i)).length).reduce(
      (a, b) => a + b,
    );

  it("writes zeros ahead; replay and a reopened writer see exactly the records", async () => {
    const w = JournalWriter.open(dir, 1, 0);
    await append(w, 1, 5);
    const [seg] = listSegments(dir);
    expect(sizeOf(seg.file)).to.equal(PREALLOCATE_BYTES); // written in place, not appended
    expect(w.size).to.equal(bytesOf(1, 5));
    const { seqs, scan } = replay(dir);
    expect(seqs).to.deep.equal([1, 2, 3, 4, 5]);
    expect(scan).to.deep.include({ tailStart: 1, tailBytes: bytesOf(1, 5), droppedBytes: 0 });
    expect(sizeOf(seg.file)).to.equal(PREALLOCATE_BYTES); // the zeros are not damage: nothing cut
    await append(w, 6, 6);
    await w.close();
    expect(sizeOf(seg.file)).to.equal(bytesOf(1, 6)); // a clean close cuts the zeros
    const again = JournalWriter.open(dir, 1, replay(dir).scan.tailBytes);
    await append(again, 7, 8);
    const crashed = image(); // kill -9 now: the zeros stay
    await again.close();
    const after = replay(crashed);
    expect(after.seqs).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(sizeOf(listSegments(crashed)[0].file)).to.equal(bytesOf(1, 6) + PREALLOCATE_BYTES);
    const third = JournalWriter.open(crashed, 1, after.scan.tailBytes);
    await append(third, 9, 9);
    await third.close();
    expect(replay(crashed).seqs).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("keeps the zeros of a rotated segment; replay reads across it", async () => {
    const w = JournalWriter.open(dir, 1, 0);
    await append(w, 1, 3);
    await w.rotate(4);
    await append(w, 4, 6);
    const segs = listSegments(dir);
    expect(segs.map((s) => s.startSeq)).to.deep.equal([1, 4]);
    expect(sizeOf(segs[0].file)).to.equal(PREALLOCATE_BYTES);
    expect(replay(dir).seqs).to.deep.equal([1, 2, 3, 4, 5, 6]);
    await w.close();
  });

  it("drops only the record a crash cut in a preallocated segment, and appends after the rest", async () => {
    const w = JournalWriter.open(dir, 1, 0);
    await append(w, 1, 4);
    dir = image(); // kill -9 after record 4
    await w.close();
    const [seg] = listSegments(dir);
    // a crash mid-write: the first bytes of record 5 reached the file, the zeros written ahead follow
    for (const cut of [3, 40, encodeJournalRecord(rec(5)).length - 1]) {
      const fd = fs.openSync(seg.file, "r+");
      fs.writeSync(fd, encodeJournalRecord(rec(5)).subarray(0, cut), 0, cut, bytesOf(1, 4));
      fs.closeSync(fd);
      const { seqs, scan } = replay(dir);
      expect(seqs, `cut at ${cut}`).to.deep.equal([1, 2, 3, 4]);
      expect(scan.droppedBytes).to.be.greaterThan(0);
      expect(scan.tailBytes).to.equal(bytesOf(1, 4));
      expect(sizeOf(seg.file)).to.equal(bytesOf(1, 4)); // the torn record is cut, its zeros with it
    }
    const again = JournalWriter.open(dir, 1, bytesOf(1, 4));
    await append(again, 5, 6);
    expect(replay(dir).seqs).to.deep.equal([1, 2, 3, 4, 5, 6]);
    await again.close();
  });

  it("recovers from damage in the middle of a preallocated segment to the record before it", async () => {
    const w = JournalWriter.open(dir, 1, 0);
    await append(w, 1, 4);
    dir = image();
    await w.close();
    const [seg] = listSegments(dir);
    const fd = fs.openSync(seg.file, "r+");
    fs.writeSync(fd, Buffer.from([0xff]), 0, 1, bytesOf(1, 1) + 20); // inside record 2's payload
    fs.closeSync(fd);
    expect(replay(dir).scan.setAside?.afterSeq).to.equal(1);
    expect(sizeOf(seg.file)).to.equal(bytesOf(1, 1)); // cut after record 1; the rest moved aside
    expect(fs.readdirSync(dir).filter((f) => f.includes(".damaged-"))).to.have.length(1);
  });

  it("history log: replays the records before zeros and before a cut record, and appends after them", async () => {
    const a = HistoryLog.open<{ n: number }>(dir, () => undefined).log;
    await Promise.all([1, 2, 3].map((n) => a.append({ n })));
    dir = image(); // kill -9 after record 3
    await a.close();
    const [seg] = listSegments(dir);
    expect(sizeOf(seg.file)).to.equal(PREALLOCATE_BYTES);
    const end = [1, 2, 3].map((n) => encodeRecord({ n }).length).reduce((x, y) => x + y);
    const fd = fs.openSync(seg.file, "r+");
    fs.writeSync(fd, encodeRecord({ n: 4 }), 0, 10, end); // record 4 cut by a crash
    fs.closeSync(fd);
    const b = HistoryLog.open<{ n: number }>(dir, () => undefined);
    expect(b.scan).to.deep.include({ records: 3 });
    expect(b.scan.droppedBytes).to.be.greaterThan(0);
    await b.log.append({ n: 5 });
    dir = image(); // kill -9 after record 5
    await b.log.close();
    const out: number[] = [];
    const c = HistoryLog.open<{ n: number }>(dir, (r) => out.push(r.n));
    await c.log.close();
    expect(out).to.deep.equal([1, 2, 3, 5]);
  });

  it("keeps a chunk of zeros ahead of small writes, never over them, and none for large ones", async () => {
    const file = path.join(dir, "seg");
    const fd = fs.openSync(file, "w+");
    try {
      const chunk = 64 * 1024;
      const space = new Preallocation(fd, 0, chunk);
      const put = async (from: number, n: number, byte: number): Promise<void> => {
        await space.reserve(from, from + n); // as the writer does: reserve, then write in place
        fs.writeSync(fd, Buffer.alloc(n, byte), 0, n, from);
        await space.settle();
      };
      await space.reserve(0, 0); // as the writer does when it opens a segment
      await space.settle();
      expect(sizeOf(file)).to.equal(chunk); // zeros ahead
      await put(0, 1000, 0xaa);
      expect(sizeOf(file)).to.equal(chunk); // written over them
      await put(1000, 40_000, 0xbb); // large (a quarter chunk or more): no zeros started
      expect(sizeOf(file)).to.equal(chunk);
      await put(41_000, 1000, 0xcc); // small, under half a chunk left: the next chunk of zeros
      expect(sizeOf(file)).to.equal(2 * chunk);
      const b = fs.readFileSync(file);
      expect([b[0], b[999], b[1000], b[40_999], b[41_000], b[41_999], b[42_000]]).to.deep.equal([
        0xaa, 0xaa, 0xbb, 0xbb, 0xcc, 0xcc, 0,
      ]);
      expect(b.subarray(42_000).every((x) => x === 0)).to.equal(true);
    } finally {
      fs.closeSync(fd);
    }
  });
});
