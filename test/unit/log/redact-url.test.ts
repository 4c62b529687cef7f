import { expect } from "chai";
import { redactUrl } from "../../../src/log/redact-url";

describe("redactUrl", () => {
  it("replaces the user name and password of a URL by ***", () => {
    expect(redactUrl("https://collector:s3cr%40t@otel.example.org:4318/base")).to.equal(
      "https://***@otel.example.org:4318/base",
    );
    expect(redactUrl("http://only-user@host/")).to.equal("http://***@host/");
  });

  it("leaves a URL without userinfo as it is, and shows no part of one it cannot parse", () => {
    expect(redactUrl("http://127.0.0.1:4318")).to.equal("http://127.0.0.1:4318/");
    expect(redactUrl("not a url with secret")).to.equal("(not a URL)");
  });
});
