import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SigningKeys } from "../../../src/auth/signing-keys";

describe("auth/signing-keys", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-keys-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const HOUR = 3_600_000;
  const file = () => path.join(dir, "auth", "signing-keys.json");

  it("makes a key on first start, mode 0600, and loads the same key next time", () => {
    const a = SigningKeys.open(dir, HOUR, 90 * 24 * HOUR);
    expect(fs.statSync(file()).mode & 0o777).to.equal(0o600);
    const b = SigningKeys.open(dir, HOUR, 90 * 24 * HOUR);
    expect(b.current.kid).to.equal(a.current.kid);
    expect(b.jwks().keys).to.deep.equal(a.jwks().keys);
    expect(a.jwks().keys[0]).to.not.have.property("d");
  });

  it("keeps a rotated-out key until its tokens have expired, then drops it", () => {
    const t0 = Date.now();
    const keys = SigningKeys.open(dir, HOUR, 90 * 24 * HOUR, t0);
    const old = keys.current.kid;
    const next = keys.rotate(t0 + 1000).kid;
    expect(keys.jwks().keys.map((k) => k.kid)).to.deep.equal([old, next]);
    expect(keys.byKid(old)).to.not.equal(undefined);
    const later = SigningKeys.open(dir, HOUR, 90 * 24 * HOUR, t0 + 2 * HOUR);
    expect(later.jwks().keys.map((k) => k.kid)).to.deep.equal([next]);
  });

  it("rotates a key older than the maximum age at start", () => {
    const t0 = Date.now();
    const first = SigningKeys.open(dir, HOUR, 24 * HOUR, t0).current.kid;
    const again = SigningKeys.open(dir, HOUR, 24 * HOUR, t0 + 25 * HOUR);
    expect(again.current.kid).to.not.equal(first);
    expect(again.byKid(first)).to.not.equal(undefined);
  });
});
