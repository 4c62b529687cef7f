import { expect } from "chai";
import path from "node:path";
import { ConfigError, loadConfig } from "../../../src/config/config";

describe("loadConfig", () => {
  it("gives the embedded defaults", () => {
    const c = loadConfig({});
    expect(c.server.port).to.equal(1026);
    expect(c.store.dataDir).to.equal(path.resolve("./data"));
    expect(c.redisUrl).to.equal(undefined);
    expect(c.server.logLevel).to.equal("info");
    expect(c.demo.seed).to.equal(true);
    expect(c.sparql.sparqlTimeoutMs).to.equal(10_000);
    expect(c.sparql.sparqlMaxRows).to.equal(100_000);
    expect(c.tuning.heapGrowingPercent).to.equal(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: "30" }).tuning.heapGrowingPercent).to.equal(30);
  });

  it("reads durations with units (bare numbers are seconds)", () => {
    expect(loadConfig({ SPARQL_TIMEOUT: "2.5s" }).sparql.sparqlTimeoutMs).to.equal(2500);
    expect(loadConfig({ SPARQL_TIMEOUT: "500ms" }).sparql.sparqlTimeoutMs).to.equal(500);
    expect(loadConfig({ SPARQL_TIMEOUT: "2m" }).sparql.sparqlTimeoutMs).to.equal(120_000);
    expect(loadConfig({ SPARQL_TIMEOUT: "30" }).sparql.sparqlTimeoutMs).to.equal(30_000);
    expect(() => loadConfig({ SPARQL_TIMEOUT: "soon" })).to.throw(
      ConfigError,
      /SPARQL_TIMEOUT must be a duration/,
    );
    expect(() => loadConfig({ SPARQL_TIMEOUT: "2d" })).to.throw(
      ConfigError,
      /SPARQL_TIMEOUT must be between/,
    );
  });

  it("reads and checks values", () => {
    const c = loadConfig({
      PORT: "8080",
      REDIS_URL: "redis://127.0.0.1:6379",
      LOG_LEVEL: "DEBUG",
      SEED: "off",
    });
    expect(c.server.port).to.equal(8080);
    expect(c.redisUrl).to.equal("redis://127.0.0.1:6379");
    expect(c.server.logLevel).to.equal("debug");
    expect(c.demo.seed).to.equal(false);
  });

  it("refuses bad values with a message naming the variable", () => {
    expect(() => loadConfig({ PORT: "abc" })).to.throw(ConfigError, /PORT must be a whole number/);
    expect(() => loadConfig({ PORT: "70000" })).to.throw(ConfigError, /PORT must be between/);
    expect(() => loadConfig({ REDIS_URL: "http://x" })).to.throw(ConfigError, /REDIS_URL must use/);
    expect(() => loadConfig({ LOG_LEVEL: "loud" })).to.throw(ConfigError, /LOG_LEVEL/);
    expect(() => loadConfig({ SEED: "maybe" })).to.throw(ConfigError, /SEED must be on or off/);
  });

  it("reads PUBLIC_URL without its trailing slash, refuses a query or credentials, and the LDES bounds", () => {
    expect(loadConfig({}).server.publicUrl).to.equal(undefined);
    expect(loadConfig({ PUBLIC_URL: "https://traffic.example.org/" }).server.publicUrl).to.equal(
      "https://traffic.example.org",
    );
    expect(loadConfig({ PUBLIC_URL: "https://x.example/city/" }).server.publicUrl).to.equal(
      "https://x.example/city",
    );
    expect(() => loadConfig({ PUBLIC_URL: "https://x.example/?a=1" })).to.throw(ConfigError, /PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: "https://u:p@x.example" })).to.throw(ConfigError, /PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: "ftp://x.example" })).to.throw(ConfigError, /PUBLIC_URL must use/);
    const { ldes } = loadConfig({ LDES_PAGE_MEMBERS: "100", LDES_CACHE_BYTES: "1048576" });
    expect([ldes.ldesPageMembers, ldes.ldesCacheBytes]).to.deep.equal([100, 1_048_576]);
    expect(loadConfig({}).ldes.ldesPageMembers).to.equal(250);
    expect(() => loadConfig({ LDES_PAGE_MEMBERS: "0" })).to.throw(ConfigError, /LDES_PAGE_MEMBERS/);
  });

  it("reads the dashboard's map tiles (MAP_TILES_URL) and refuses a template without {z}/{x}/{y}", () => {
    expect(loadConfig({}).dashboard).to.deep.equal({
      tilesUrl: undefined,
      tilesAttribution: "© OpenStreetMap contributors",
      dir: undefined,
    });
    const tiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
    const c = loadConfig({
      MAP_TILES_URL: tiles,
      MAP_TILES_ATTRIBUTION: "© OSM",
      DASHBOARD_DIR: "web-build",
    });
    expect(c.dashboard).to.deep.equal({
      tilesUrl: tiles,
      tilesAttribution: "© OSM",
      dir: path.resolve("web-build"),
    });
    expect(() => loadConfig({ MAP_TILES_URL: "https://tiles.example/tile.png" })).to.throw(
      ConfigError,
      /MAP_TILES_URL must contain \{z\}, \{x\} and \{y\}/,
    );
    expect(() => loadConfig({ MAP_TILES_URL: "ftp://tiles/{z}/{x}/{y}" })).to.throw(
      ConfigError,
      /MAP_TILES_URL must use/,
    );
  });
});
