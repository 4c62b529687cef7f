import { expect } from "chai";
import { allows, checkPermission } from "../../../src/auth/permissions";
import type { Principal } from "../../../src/auth/principal";

const as = (role: Principal["role"]): Principal => ({ id: "x", kind: "user", role, tenants: [] });

describe("auth/permissions", () => {
  it("viewer reads, reports and keeps its alerts; operator writes; admin administers", () => {
    expect(["read", "report", "own-alerts"].every((a) => allows(as("viewer"), a as never))).to.equal(true);
    expect(allows(as("viewer"), "write")).to.equal(false);
    expect(allows(as("operator"), "write")).to.equal(true);
    expect(allows(as("operator"), "admin")).to.equal(false);
    expect(allows(as("admin"), "admin")).to.equal(true);
  });

  it("throws AccessDenied naming the missing permission", () => {
    expect(() => checkPermission(as("viewer"), "write"))
      .to.throw("Role viewer may not write")
      .with.property("kind", "AccessDenied");
  });
});
