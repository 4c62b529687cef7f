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

describe("HistoryLog.holdFiles (a consistent cut for a backup)", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-hist-hold-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("hands out files holding every record appended before it, which change no more", async () => {
    const a = open(dir);
    await a.log.append({ n: 1 });
    await a.log.compact([{ n: 10 }]);
    const pending = [2, 3].map((n) => a.log.append({ n })); // not yet on disk when the cut is asked for
    const held = await a.log.holdFiles();
    await Promise.all(pending);
    const sizes = held.files.map((f) => fs.statSync(path.join(held.dir, f)).size);
    await a.log.append({ n: 4 });
    expect(held.files.map((f) => fs.statSync(path.join(held.dir, f)).size)).to.deep.equal(sizes);

    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-hist-copy-"));
    for (const f of held.files) fs.copyFileSync(path.join(held.dir, f), path.join(copy, f));
    held.release();
    const restored = open(copy);
    expect(restored.got).to.deep.equal([10, 2, 3]);
    await restored.log.close();
    fs.rmSync(copy, { recursive: true, force: true });
    await a.log.close();
    expect(open(dir).got).to.deep.equal([10, 2, 3, 4]);
  });

  it("makes a compaction asked for while files are held wait for their release", async () => {
    const a = open(dir);
    await a.log.append({ n: 1 });
    const held = await a.log.holdFiles();
    let compacted = false;
    const compaction = a.log.compact([{ n: 50 }]).then(() => (compacted = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(compacted).to.equal(false);
    for (const f of held.files) expect(fs.existsSync(path.join(held.dir, f)), f).to.equal(true);
    held.release();
    await compaction;
    await a.log.close();
    expect(open(dir).got).to.deep.equal([50]);
  });
});
