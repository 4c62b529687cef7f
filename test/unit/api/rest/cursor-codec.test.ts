import { expect } from "chai";
import crypto from "node:crypto";
import { AppError } from "../../../../src/errors";
import { CursorCodec, listScope } from "../../../../src/api/rest/cursor-codec";

describe("api/rest cursor codec", () => {
  const codec = new CursorCodec(crypto.randomBytes(32));
  const scope = listScope("/api/v1/cameras", { status: "active", location: undefined });

  const refused = (token: string, s = scope): AppError => {
    try {
      codec.decode(token, s);
    } catch (e) {
      return e as AppError;
    }
    throw new Error("accepted");
  };

  it("round-trips the sort key of a cursor made for the same scope", () => {
    const token = codec.encode({ scope, after: [1732500000000, "urn:x:1"] });
    expect(token).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(token, scope).after).to.deep.equal([1732500000000, "urn:x:1"]);
  });

  it("refuses a changed, truncated or forged cursor as 400 INVALID_PARAMETER on 'cursor'", () => {
    const token = codec.encode({ scope, after: ["cam-10"] });
    const [body, mac] = token.split(".");
    const changedBody = Buffer.from(
      Buffer.from(body, "base64url").toString("utf8").replace("cam-10", "cam-99"),
    ).toString("base64url");
    for (const bad of [
      `${changedBody}.${mac}`,
      token.slice(0, -3),
      body,
      `${body}.`,
      `.${mac}`,
      "garbage",
      new CursorCodec(crypto.randomBytes(32)).encode({ scope, after: ["cam-10"] }),
      "x".repeat(5000),
    ]) {
      const e = refused(bad);
      expect(e.kind, bad).to.equal("BadRequestData");
      expect(e.details.parameter).to.equal("cursor");
      expect(e.details.expected).to.be.a("string");
    }
  });

  it("refuses a cursor of another list or other filters", () => {
    const token = codec.encode({ scope, after: ["cam-10"] });
    const other = listScope("/api/v1/cameras", { status: "error" });
    expect(refused(token, other).message).to.contain("another list");
  });

  it("gives the same scope for the same filters in any order and leaves out absent ones", () => {
    expect(listScope("/p", { b: 1, a: "x", c: undefined })).to.equal(listScope("/p", { a: "x", b: 1 }));
    expect(listScope("/p", { a: "x" })).to.not.equal(listScope("/q", { a: "x" }));
  });
});
