import { expect } from "chai";
import { ERROR_KINDS } from "../../../src/errors/error-kinds";

describe("error kinds table", () => {
  it("gives every kind a status, a ProblemDetails type, a REST code, a GraphQL code and a close code", () => {
    for (const [name, k] of Object.entries(ERROR_KINDS)) {
      expect(k.status, name).to.be.within(400, 599);
      expect(k.problem, name).to.match(/^[A-Z][A-Za-z]+$/);
      expect(k.code, name).to.match(/^[A-Z_]+$/);
      expect(k.graphql, name).to.match(/^[A-Z_]+$/);
      expect([4400, 4401, 4403, 4429, 1011], name).to.include(k.close);
    }
  });

  it("closes sockets with 4401, 4403 and 4429 for the auth and rate-limit kinds, 1011 for the server's faults", () => {
    expect(ERROR_KINDS.Unauthorized.close).to.equal(4401);
    expect(ERROR_KINDS.AccessDenied.close).to.equal(4403);
    expect(ERROR_KINDS.TooManyRequests.close).to.equal(4429);
    expect(ERROR_KINDS.BadRequestData.close).to.equal(4400);
    for (const k of Object.values(ERROR_KINDS)) if (k.status >= 500) expect(k.close).to.equal(1011);
  });
});
