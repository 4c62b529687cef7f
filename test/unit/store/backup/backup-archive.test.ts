import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { DamagedBackupError, readArchive } from "../../../../src/store/backup/archive-reader";
import { ArchiveWriter } from "../../../../src/store/backup/archive-writer";
import { restoreArchive } from "../../../../src/store/backup/restore-archive";
import { removeDir, tempDir } from "../helpers";

/** Writes an archive of `files` (path -> content) under `dir`. */
async function writeArchive(dir: string, files: Record<string, string>): Promise<string> {
  const src = path.join(dir, "src");
  const w = new ArchiveWriter();
  const chunks: Buffer[] = [];
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(src, p)), { recursive: true });
    fs.writeFileSync(path.join(src, p), text, { mode: 0o600 });
    for await (const c of w.file(p, path.join(src, p))) chunks.push(c);
  }
  for await (const c of w.file("gone/file", path.join(src, "gone", "file"))) chunks.push(c);
  for (const c of w.finish(7)) chunks.push(c);
  const file = path.join(dir, "a.tar");
  fs.writeFileSync(file, Buffer.concat(chunks));
  return file;
}

describe("store/backup: the backup archive", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("reads back what it wrote: each file's size and SHA-256 in the manifest, a missing file left out", async () => {
    const file = await writeArchive(dir, { "store/manifest.json": "{}", "media/a/b.jpg": "x".repeat(1000) });
    const m = readArchive(file);
    expect(m.storeSeq).to.equal(7);
    expect(m.files.map((f) => [f.path, f.bytes])).to.deep.equal([
      ["store/manifest.json", 2],
      ["media/a/b.jpg", 1000],
    ]);
    const out = path.join(dir, "out");
    restoreArchive(file, out);
    expect(fs.readFileSync(path.join(out, "media", "a", "b.jpg"), "utf8")).to.equal("x".repeat(1000));
    expect(fs.statSync(path.join(out, "store", "manifest.json")).mode & 0o777).to.equal(0o600);
  });

  it("refuses the archive whatever single byte is changed, and whatever length it is cut to", async function () {
    this.timeout(60_000);
    const file = await writeArchive(dir, { "a.txt": "hello", "b/c.txt": "world".repeat(50) });
    const good = fs.readFileSync(file);
    const bad = path.join(dir, "bad.tar");
    // every byte of the headers (blocks 0, 2, 4, 6) and of the checksum entry and end blocks, some of the rest
    const headers = new Set([0, 2, 4, 6]);
    const tail = good.length - 4 * 512;
    for (let i = 0; i < good.length; i++) {
      if (!headers.has(Math.floor(i / 512)) && i < tail && i % 13 !== 0) continue;
      const copy = Buffer.from(good);
      copy[i] ^= 0x04;
      fs.writeFileSync(bad, copy);
      expect(() => readArchive(bad), `byte ${i}`).to.throw(DamagedBackupError);
    }
    for (let n = 0; n < good.length; n += 97) {
      fs.writeFileSync(bad, good.subarray(0, n));
      expect(() => readArchive(bad), `cut at ${n}`).to.throw(DamagedBackupError);
    }
  });

  it("restores into an empty folder only, and writes nothing from a damaged archive", async () => {
    const file = await writeArchive(dir, { "a.txt": "hello" });
    const full = path.join(dir, "full");
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, "x"), "");
    expect(() => restoreArchive(file, full)).to.throw(/is not empty/);
    const bytes = fs.readFileSync(file);
    bytes[600] ^= 1;
    fs.writeFileSync(file, bytes);
    const target = path.join(dir, "target");
    expect(() => restoreArchive(file, target)).to.throw(DamagedBackupError);
    expect(fs.existsSync(target)).to.equal(false);
  });
});
