import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { takeIndexImage, writeIndexImage } from "../../../../src/store/indexes/index-image";
import { removeDir, tempDir } from "../helpers";

describe("store/indexes: the index image file", () => {
  let dir: string;
  const file = (): string => path.join(dir, "indexes", "derived.img");
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("gives back the header and the frames as written, and takes the file away", async () => {
    const frames = [{ a: [1, "x"] }, new Int32Array([3, 4]), [["t", { exact: true, instances: [[1]] }]]];
    const bytes = await writeIndexImage(dir, { seq: 42, build: "b1" }, frames);
    expect(fs.statSync(file()).size).to.equal(bytes);
    const image = takeIndexImage(dir);
    expect(fs.existsSync(file()), "taken").to.equal(false);
    expect(image?.header).to.deep.equal({ seq: 42, build: "b1" });
    expect([...{ [Symbol.iterator]: () => image!.frames }]).to.deep.equal(frames);
    expect(takeIndexImage(dir)).to.equal(undefined);
  });

  it("reads no image from a file of another format, and removes it and a stop's temp file all the same", async () => {
    await writeIndexImage(dir, { seq: 1, build: "b" }, []);
    const buf = fs.readFileSync(file());
    fs.writeFileSync(file(), Buffer.concat([buf.subarray(0, 4), Buffer.alloc(buf.length - 4)]));
    fs.writeFileSync(`${file()}.tmp`, "half");
    expect(takeIndexImage(dir)).to.equal(undefined);
    expect(fs.readdirSync(path.join(dir, "indexes"))).to.deep.equal([]);
  });

  it("throws on a frame cut short (a damaged file), once it is read", async () => {
    await writeIndexImage(dir, { seq: 1, build: "b" }, [{ big: "x".repeat(1000) }]);
    fs.truncateSync(file(), fs.statSync(file()).size - 10);
    const image = takeIndexImage(dir);
    expect(image?.header.seq).to.equal(1);
    expect(() => image!.frames.next()).to.throw(/cut short/);
  });
});
