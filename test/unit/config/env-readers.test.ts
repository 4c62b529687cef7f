import { expect } from "chai";
import { ConfigError } from "../../../src/config/config-error";
import { durationVar, intVar, oneOf, switchVar, urlVar } from "../../../src/config/env-readers";

describe("env readers", () => {
  it("give the default when the variable is unset or empty", () => {
    expect(intVar({}, "N", 7, 0, 10)).to.equal(7);
    expect(intVar({ N: "" }, "N", 7, 0, 10)).to.equal(7);
    expect(durationVar({}, "D", 1500, 0, 10_000)).to.equal(1500);
    expect(switchVar({}, "S", true)).to.equal(true);
    expect(oneOf({}, "O", ["a", "b"] as const, "b")).to.equal("b");
    expect(urlVar({}, "U", ["http:"])).to.equal(undefined);
  });

  it("read the values they accept", () => {
    expect(intVar({ N: " 10 " }, "N", 7, 0, 10)).to.equal(10);
    expect(durationVar({ D: "2m" }, "D", 0, 0, 3_600_000)).to.equal(120_000);
    expect(durationVar({ D: "3" }, "D", 0, 0, 3_600_000)).to.equal(3000);
    expect(switchVar({ S: "OFF" }, "S", true)).to.equal(false);
    expect(switchVar({ S: "yes" }, "S", false)).to.equal(true);
    expect(oneOf({ O: "A" }, "O", ["a", "b"] as const, "b")).to.equal("a");
    expect(urlVar({ U: "https://x.example/hook" }, "U", ["https:"])).to.equal("https://x.example/hook");
  });

  it("refuse what they do not accept with a ConfigError naming the variable", () => {
    const refused = (f: () => unknown, text: RegExp) => expect(f).to.throw(ConfigError, text);
    refused(() => intVar({ N: "1.5" }, "N", 0, 0, 10), /^N must be a whole number/);
    refused(() => intVar({ N: "11" }, "N", 0, 0, 10), /^N must be between 0 and 10/);
    refused(() => durationVar({ D: "soon" }, "D", 0, 0, 10), /^D must be a duration/);
    refused(() => switchVar({ S: "maybe" }, "S", true), /^S must be on or off/);
    refused(() => oneOf({ O: "c" }, "O", ["a", "b"] as const, "a"), /^O must be one of a, b/);
    refused(() => urlVar({ U: "not a url" }, "U", ["http:"]), /^U must be a URL/);
    refused(() => urlVar({ U: "ftp://x" }, "U", ["http:", "https:"]), /^U must use http: or https:/);
  });
});
