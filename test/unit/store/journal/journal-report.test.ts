import fs from "node:fs";
import { expect } from "chai";
import { reportLogs } from "../../../../src/store/journal/journal-report";
import { entityTriples, open, removeDir, segments, tempDir } from "../helpers";

describe("store/journal-report (citygraph repair)", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("reports a damaged segment, then what a start set aside, without changing anything", async () => {
    const store = await open(dir);
    for (let i = 0; i < 4; i++)
      await store.commit("", [{ graph: `urn:e:${i}`, triples: entityTriples(`urn:e:${i}`, i) }]);
    await store.close();
    const [seg] = segments(dir);
    const buf = fs.readFileSync(seg);
    const second = buf.readUInt32LE(0) + 8;
    buf[second + 12] ^= 0x20;
    fs.writeFileSync(seg, buf);
    const dataDir = dir;
    const before = reportLogs(dataDir).find((r) => r.file === seg);
    expect(before?.damage?.reason).to.match(/checksum/);
    expect(before?.records).to.equal(1);
    // seq 2 is damaged; 3 and 4 are whole, each with its own checksum
    expect(before?.afterDamage).to.deep.equal({ records: 2, firstSeq: 3, lastSeq: 4 });
    expect(fs.readFileSync(seg)).to.deep.equal(buf);
    await (await open(dir)).close();
    const aside = reportLogs(dataDir).filter((r) => r.file.includes(".damaged-"));
    expect(aside).to.have.length(1);
    expect(aside[0].damage?.offset).to.equal(0); // the damaged record now comes first
    expect(aside[0].records).to.equal(0);
    expect(aside[0].afterDamage).to.deep.equal({ records: 2, firstSeq: 3, lastSeq: 4 });
  });
});
