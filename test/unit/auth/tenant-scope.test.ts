import { expect } from "chai";
import type { Principal } from "../../../src/auth/principal";
import { checkAllTenants, checkGrant, coversTenants } from "../../../src/auth/tenant-scope";

const admin = (tenants: string[]): Principal => ({ id: "a", kind: "user", role: "admin", tenants });

describe("auth/tenant-scope", () => {
  it("an admin of every tenant covers any list; a limited one only lists within its own", () => {
    expect(coversTenants(admin([]), [])).to.equal(true);
    expect(coversTenants(admin([]), ["t2"])).to.equal(true);
    expect(coversTenants(admin(["", "t1"]), ["t1"])).to.equal(true);
    expect(coversTenants(admin(["", "t1"]), [""])).to.equal(true);
    expect(coversTenants(admin([""]), []), "[] is every tenant").to.equal(false);
    expect(coversTenants(admin([""]), ["", "t2"])).to.equal(false);
  });

  it("refuses to grant what the admin lacks, naming the tenants and the parameter", () => {
    expect(() => checkGrant(admin([""]), ["", "t2"]))
      .to.throw('Tenants ["t2"] are not open')
      .with.property("kind", "AccessDenied");
    expect(() => checkGrant(admin([""]), [])).to.throw("given only by an admin of every tenant");
    expect(() => checkAllTenants(admin(["t1"]), "A backup")).to.throw("A backup spans every tenant");
    expect(() => checkAllTenants(admin([]), "A backup")).to.not.throw();
  });
});
