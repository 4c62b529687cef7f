import { expect } from "chai";
import { parseJson } from "../../../../src/api/http/read-body";
import { AppError } from "../../../../src/errors";

describe("api/http/read-body parseJson", () => {
  it("refuses a string escape that leaves a lone surrogate, in a key or a value at any depth", () => {
    for (const text of ['"\\ud83d"', '{"a":["\\ude00"]}', '{"\\udbffx":1}', '[{"a":{"b":"x\\ud800y"}}]']) {
      expect(() => parseJson(text), text)
        .to.throw(AppError)
        .with.property("status", 400);
    }
  });

  it("keeps surrogate pairs, escaped backslashes and plain text", () => {
    expect(parseJson('{"car":"\\ud83d\\ude97"}')).to.deep.equal({ car: "🚗" });
    expect(parseJson('"\\\\ud83d"')).to.equal("\\ud83d");
    expect(parseJson('{"a":"\\u00e9"}')).to.deep.equal({ a: "é" });
  });
});
