import { expect } from "chai";
import path from "node:path";
import { ConfigError, loadConfig } from "../../../src/config/config";

describe("loadConfig (issue 2 item 2)", () => {
  it("gives the embedded defaults", () => {
    const c = loadConfig({});
    expect(c.port).to.equal(1026);
    expect(c.dataDir).to.equal(path.resolve("./data"));
    expect(c.redisUrl).to.equal(undefined);
    expect(c.logLevel).to.equal("info");
    expect(c.seed).to.equal(true);
  });

  it("reads and checks values", () => {
    const c = loadConfig({
      PORT: "8080",
      REDIS_URL: "redis://127.0.0.1:6379",
      LOG_LEVEL: "DEBUG",
      SEED: "off",
    });
    expect(c.port).to.equal(8080);
    expect(c.redisUrl).to.equal("redis://127.0.0.1:6379");
    expect(c.logLevel).to.equal("debug");
    expect(c.seed).to.equal(false);
  });

  it("refuses bad values with a message naming the variable", () => {
    expect(() => loadConfig({ PORT: "abc" })).to.throw(ConfigError, /PORT must be a whole number/);
    expect(() => loadConfig({ PORT: "70000" })).to.throw(ConfigError, /PORT must be between/);
    expect(() => loadConfig({ REDIS_URL: "http://x" })).to.throw(ConfigError, /REDIS_URL must use/);
    expect(() => loadConfig({ LOG_LEVEL: "loud" })).to.throw(ConfigError, /LOG_LEVEL/);
    expect(() => loadConfig({ SEED: "maybe" })).to.throw(ConfigError, /SEED must be on or off/);
  });
});
