import { expect } from "chai";
import { admitTenant } from "../../../../src/api/http/tenant";
import type { Principal } from "../../../../src/auth/principal";
import { toAppError } from "../../../../src/errors";

const who = (tenants: string[]): Principal => ({ id: "u", kind: "user", role: "admin", tenants });
const statusOf = (f: () => void): number => {
  try {
    f();
    return 200;
  } catch (e) {
    return toAppError(e).status;
  }
};

describe("api/http/tenant admitTenant", () => {
  it("serves the traffic faces from the default tenant only: 403 without it, then 400 for another named", () => {
    for (const face of ["rest-a", "rest-b", "graphql", "ws", "open311"] as const) {
      expect(
        statusOf(() => admitTenant(who(["t1"]), face, "")),
        face,
      ).to.equal(403);
      expect(
        statusOf(() => admitTenant(who(["t1"]), face, "t1")),
        face,
      ).to.equal(403);
      expect(
        statusOf(() => admitTenant(who(["", "t1"]), face, "t1")),
        face,
      ).to.equal(400);
      expect(
        statusOf(() => admitTenant(who([]), face, "t1")),
        face,
      ).to.equal(400);
      expect(
        statusOf(() => admitTenant(undefined, face, "t1")),
        face,
      ).to.equal(400);
      expect(
        statusOf(() => admitTenant(who(["", "t1"]), face, "")),
        face,
      ).to.equal(200);
      expect(
        statusOf(() => admitTenant(who([]), face, "")),
        face,
      ).to.equal(200);
    }
  });

  it("holds the other faces to the principal's list", () => {
    for (const face of ["ngsi-ld", "sparql", "http"] as const) {
      expect(
        statusOf(() => admitTenant(who(["t1"]), face, "t1")),
        face,
      ).to.equal(200);
      expect(
        statusOf(() => admitTenant(who(["t1"]), face, "")),
        face,
      ).to.equal(403);
      expect(
        statusOf(() => admitTenant(who(["t1"]), face, "t2")),
        face,
      ).to.equal(403);
      expect(
        statusOf(() => admitTenant(who([]), face, "t2")),
        face,
      ).to.equal(200);
      expect(
        statusOf(() => admitTenant(undefined, face, "t2")),
        face,
      ).to.equal(200);
    }
  });
});
