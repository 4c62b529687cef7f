import { expect } from "chai";
import { canonicalPath } from "../../../../src/api/http/canonical-path";
import { AppError } from "../../../../src/errors";

describe("api/http/canonical-path", () => {
  it("decodes escaped letters, digits, '-', '_' and '~', and keeps every other escape", () => {
    expect(canonicalPath("/ngsi-ld/v1/%73ubscriptions")).to.equal("/ngsi-ld/v1/subscriptions");
    expect(canonicalPath("/%6Egsi%2Dld/v%31/%45ntities")).to.equal("/ngsi-ld/v1/Entities");
    expect(canonicalPath("/a/%5F%7e%7E")).to.equal("/a/_~~");
    expect(canonicalPath("/entities/urn%3Ax%2Fy%20z")).to.equal("/entities/urn%3Ax%2Fy%20z");
    expect(canonicalPath("/entities/%2E%2E/subscriptions")).to.equal("/entities/%2E%2E/subscriptions");
    expect(canonicalPath("/entities/%F0%9F%9A%97")).to.equal("/entities/%F0%9F%9A%97");
    expect(canonicalPath("/plain/Path/")).to.equal("/plain/Path/");
  });

  it("refuses malformed escapes and bytes that are not UTF-8 with a 400", () => {
    for (const p of ["/%zz", "/a%", "/a%4", "/%ED%A0%BD%ED%B8%80", "/%C0%AF", "/%FF", "/%E2%82"]) {
      expect(() => canonicalPath(p), p)
        .to.throw(AppError)
        .with.property("status", 400);
    }
  });
});
