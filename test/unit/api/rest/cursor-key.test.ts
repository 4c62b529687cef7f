import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CURSOR_KEY_FILE, loadCursorKey } from "../../../../src/api/rest/cursor-key";

describe("api/rest cursor key", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "cursor-key-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is made on the first start (mode 0600) and read back on the next", () => {
    const first = loadCursorKey(dir);
    expect(first.length).to.equal(32);
    const file = path.join(dir, CURSOR_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    expect(loadCursorKey(dir).equals(first)).to.equal(true);
  });

  it("refuses a damaged key file rather than signing with a weak key", () => {
    fs.mkdirSync(path.join(dir, "keys"));
    fs.writeFileSync(path.join(dir, CURSOR_KEY_FILE), "c2hvcnQ=\n");
    expect(() => loadCursorKey(dir)).to.throw(/damaged/);
  });
});
