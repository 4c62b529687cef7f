import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import type { GraphWrite } from "../../../../src/store/graph-store";
import { LogLine, normalized, entityTriples, open, removeDir, segments, tempDir } from "../helpers";

const write = (i: number): GraphWrite => ({ graph: `urn:e:${i}`, triples: entityTriples(`urn:e:${i}`, i) });

/** Commits entities 0..n-1 one by one and closes the store. */
async function fill(dir: string, n: number): Promise<void> {
  const store = await open(dir);
  for (let i = 0; i < n; i++) await store.commit("", [write(i)]);
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
    await store.commit("", [write(n)]);
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
    const cut = logs.find((l) => l.level === "warn" && /last record/.test(l.msg));
    expect(cut?.msg, JSON.stringify(logs)).to.match(
      /whether it had been acknowledged, and its seq, cannot be known/,
    );
    expect(cut?.fields).to.include({ reason: "truncated record", afterSeq: 9 });
  });

  it("says of an acknowledged last record whose bytes went bad that its acknowledgement is unknown", async () => {
    await fill(dir, 5); // each of the 5 commits was acknowledged
    const [seg] = segments(dir);
    const buf = fs.readFileSync(seg);
    buf[buf.length - 3] ^= 0x20;
    fs.writeFileSync(seg, buf);
    const logs: LogLine[] = [];
    await expectEntities(dir, 4, logs);
    expect(logs.map((l) => l.msg).join("\n")).to.not.match(/never acknowledged/);
    const cut = logs.find((l) => /last record/.test(l.msg));
    expect(cut?.msg).to.match(/cannot be known/);
    expect(cut?.fields).to.include({ afterSeq: 4, reason: "checksum mismatch" });
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

  it("starts on damage in the middle of the journal: recovers to the records before it, sets the rest aside", async () => {
    await fill(dir, 5);
    const [seg] = segments(dir);
    const buf = fs.readFileSync(seg);
    const second = buf.readUInt32LE(0) + 8; // the second record starts after the first (length + checksum header)
    buf[second + 12] ^= 0x20; // inside the second record's payload
    fs.writeFileSync(seg, buf);
    const logs: LogLine[] = [];
    await expectEntities(dir, 1, logs);
    const line = logs.find((l) => l.level === "error" && /set aside/.test(l.msg));
    expect(line?.msg, JSON.stringify(logs)).to.equal(
      "store journal: damage recovered to seq 1; 3 readable commits after it were set aside, not applied",
    );
    // seq 2 is the damaged record; 3..5 are whole, each vouched for by its own checksum
    expect(line?.fields).to.include({
      recoveredToSeq: 1,
      readableRecords: 3,
      readableSeqs: "3..5",
      unreadableSeqs: "2",
    });
    const aside = fs.readdirSync(path.dirname(seg)).filter((f) => f.includes(".damaged-"));
    expect(aside).to.have.length(1);
    expect(fs.statSync(path.join(path.dirname(seg), aside[0])).size).to.equal(buf.length - second);
  });

  it("starts after garbage behind the zeros written ahead, and sets later segments aside after damage", async () => {
    await fill(dir, 3);
    const [seg] = segments(dir);
    fs.appendFileSync(seg, Buffer.alloc(64));
    fs.appendFileSync(seg, Buffer.from("garbage after the zeros"));
    const logs: LogLine[] = [];
    await expectEntities(dir, 3, logs);
    // nothing readable was set aside: no line may say that commits were
    expect(
      logs.filter((l) => l.level === "error"),
      JSON.stringify(logs),
    ).to.deep.equal([]);
    const line = logs.find((l) => /set aside/.test(l.msg));
    expect(line?.level).to.equal("warn");
    expect(line?.msg).to.match(/hold no readable record, so no commit is known to be in them/);
    expect(line?.fields).to.include({ recoveredToSeq: 3 });
  });
});
