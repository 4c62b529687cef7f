import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HistoryLog } from "../../../../src/store/history/history-log";

type Rec = { n: number };

function open(dir: string): { log: HistoryLog<Rec>; got: number[] } {
  const got: number[] = [];
  const { log } = HistoryLog.open<Rec>(dir, (r) => got.push(r.n));
  return { log, got };
}

describe("HistoryLog (durable log of the temporal history)", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-hist-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("replays appended records in order after reopening", async () => {
    const a = open(dir);
    await Promise.all([1, 2, 3].map((n) => a.log.append({ n })));
    await a.log.close();
    const b = open(dir);
    expect(b.got).to.deep.equal([1, 2, 3]);
    await b.log.append({ n: 4 });
    await b.log.close();
    expect(open(dir).got).to.deep.equal([1, 2, 3, 4]);
  });

  it("compacts into a base and keeps records appended during the compaction", async () => {
    const a = open(dir);
    for (let n = 1; n <= 5; n++) await a.log.append({ n });
    const done = a.log.compact([{ n: 100 }]); // the state as of now, replacing 1..5
    const late = a.log.append({ n: 6 });
    await Promise.all([done, late]);
    await a.log.close();
    const files = fs.readdirSync(dir).sort();
    expect(files.some((f) => f.startsWith("base-"))).to.equal(true);
    expect(open(dir).got).to.deep.equal([100, 6]);
  });

  it("cuts a torn last record (a crash mid-write) and keeps the rest", async () => {
    const a = open(dir);
    await a.log.append({ n: 1 });
    await a.log.append({ n: 2 });
    await a.log.close();
    const seg = fs.readdirSync(dir).find((f) => f.startsWith("journal-")) as string;
    const file = path.join(dir, seg);
    fs.truncateSync(file, fs.statSync(file).size - 3);
    expect(open(dir).got).to.deep.equal([1]);
  });
});
