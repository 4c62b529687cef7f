import { expect } from "chai";
import { hashPassword, OWASP_SCRYPT, verifyPassword } from "../../../src/auth/password-hash";

describe("auth/password-hash", () => {
  const cheap = { N: 1024, r: 8, p: 1 };

  it("uses OWASP's scrypt parameters by default (N=2^17, r=8, p=1)", () => {
    expect(OWASP_SCRYPT).to.deep.equal({ N: 131072, r: 8, p: 1 });
  });

  it("hashes with a fresh salt and verifies only the right password", async () => {
    const a = await hashPassword("correct horse", cheap);
    const b = await hashPassword("correct horse", cheap);
    expect(a).to.match(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).to.not.equal(b);
    expect(await verifyPassword("correct horse", a)).to.equal(true);
    expect(await verifyPassword("correct horsE", a)).to.equal(false);
    expect(await verifyPassword("x", "not-a-hash")).to.equal(false);
  });

  it("runs at full strength with maxmem raised (Node's default of 32 MiB would refuse it)", async function () {
    this.timeout(20_000);
    const h = await hashPassword("pw");
    expect(h.startsWith("scrypt$131072$8$1$")).to.equal(true);
    expect(await verifyPassword("pw", h)).to.equal(true);
  });
});
