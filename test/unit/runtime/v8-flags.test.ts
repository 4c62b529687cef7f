import { expect } from "chai";
import { readFileSync } from "node:fs";
import path from "node:path";
import { V8_FLAGS } from "../../../src/runtime/v8-flags";

describe("process: V8 flags set by the service itself (docs/decisions/0002-memory-at-scale.md)", () => {
  it("turns allocation-site pretenuring off", () => {
    expect(V8_FLAGS).to.include("--no-allocation-site-pretenuring");
  });

  it("is the first module main.js loads, so the flags apply to all the service's code", () => {
    const main = readFileSync(path.resolve(__dirname, "..", "..", "..", "src", "main.js"), "utf8");
    const requires = [...main.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(requires[0]).to.equal("./runtime/v8-flags");
  });
});
