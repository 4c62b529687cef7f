import fs from "node:fs";
import { expect } from "chai";
import type { GraphWrite } from "../../../../src/store/graph-store";
import { LogLine, normalized, entityTriples, open, removeDir, segments, tempDir } from "../helpers";

const write = (i: number): GraphWrite => ({ graph: `urn:e:${i}`, triples: entityTriples(`urn:e:${i}`, i) });

/** Commits entities 0..n-1 one by one and closes the store. */
async function fill(dir: string, n: number): Promise<void> {
  const store = await open(dir);
  for (let i = 0; i < n; i++) await store.commit("", [write(i)], null);
  await store.close();
}

/** Reopens and checks that entities 0..n-1 are all there with their content. */
async function expectEntities(dir: string, n: number, logs: LogLine[] = []): Promise<void> {
  const store = await open(dir, {}, logs);
  try {
    const graphs = await store.readGraphs(
      "",
      Array.from({ length: n }, (_, i) => `urn:e:${i}`),
    );
    graphs.forEach((g, i) =>
      expect(normalized(g), `entity ${i}`).to.deep.equal(normalized(write(i).triples)),
    );
    expect((await store.stats()).lastSeq).to.equal(n);
    // and the store goes on writing after the repair
    await store.commit("", [write(n)], null);
  } finally {
    await store.close();
  }
}

describe("store/journal: restart and damaged tails", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("restarts with the same data (replay), twice", async () => {
    await fill(dir, 20);
    await expectEntities(dir, 20);
    await expectEntities(dir, 21);
  });

  it("cuts a record truncated mid-write and keeps every earlier commit", async () => {
    await fill(dir, 10);
    const [seg] = segments(dir);
    const size = fs.statSync(seg).size;
    fs.truncateSync(seg, size - 17); // the last record loses its end
    const logs: LogLine[] = [];
    await expectEntities(dir, 9, logs);
    expect(logs.some((l) => l.level === "warn" && /torn last record/.test(l.msg))).to.equal(true);
  });

  it("cuts garbage appended after the last record, and a half-written header", async () => {
    await fill(dir, 5);
    const [seg] = segments(dir);
    fs.appendFileSync(seg, Buffer.from([0xff, 0x13, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x55]));
    await expectEntities(dir, 5);
    fs.appendFileSync(segments(dir)[0], Buffer.from([0x07, 0x00]));
    await expectEntities(dir, 6);
  });

  it("cuts a last record whose checksum is wrong", async () => {
    await fill(dir, 5);
    const [seg] = segments(dir);
    const buf = fs.readFileSync(seg);
    buf[buf.length - 3] ^= 0x20; // flip a bit inside the last payload
    fs.writeFileSync(seg, buf);
    await expectEntities(dir, 4);
  });

  it("refuses to start, with a clear message, on damage in the middle of the journal", async () => {
    await fill(dir, 5);
    const [seg] = segments(dir);
    const buf = fs.readFileSync(seg);
    buf[12] ^= 0x20; // inside the first record's payload
    fs.writeFileSync(seg, buf);
    const err = await open(dir).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.match(
      /journal corrupt: .*checksum mismatch at byte 0 .*followed by more data/,
    );
    expect(fs.statSync(seg).size).to.equal(buf.length); // nothing was cut
  });
});
