import { expect } from "chai";
import { contentSecurityPolicy, tileOrigins } from "../../../../src/api/http/security-headers";

describe("security headers", () => {
  it("allows the map tiles' host as an image source, subdomain placeholders as a wildcard", () => {
    expect(tileOrigins(undefined)).to.deep.equal([]);
    expect(tileOrigins("https://tile.openstreetmap.org/{z}/{x}/{y}.png")).to.deep.equal([
      "https://tile.openstreetmap.org",
    ]);
    expect(tileOrigins("https://{s}.tile.example.org/{z}/{x}/{y}.png")).to.deep.equal([
      "https://*.tile.example.org",
    ]);
    expect(tileOrigins("http://a{s}.example.org/{z}/{x}/{y}.png")).to.deep.equal(["http:"]);
    expect(contentSecurityPolicy({ imageOrigins: ["https://t.example"] })).to.contain(
      "img-src 'self' data: blob: https://t.example",
    );
  });
});
