import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { startTestApp, type TestApp } from "../helpers/test-app";

/** A small stand-in build: the page template and two hashed assets. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-web-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(
    path.join(dir, "index.html"),
    '<!doctype html><meta name="citygraph-config" content="__CITYGRAPH_CONFIG__"><script src="/assets/main-AB12.js"></script>',
  );
  fs.writeFileSync(path.join(dir, "assets", "main-AB12.js"), "console.log('citygraph');\n".repeat(200));
  fs.writeFileSync(path.join(dir, "assets", "main-CD34.css"), "body { margin: 0 }\n".repeat(100));
  return dir;
}

describe("dashboard files served at /", function () {
  this.timeout(60_000);
  let app: TestApp;
  let build: string;

  before(async () => {
    build = fakeBuild();
    app = await startTestApp({
      DASHBOARD_DIR: build,
      MAP_TILES_URL: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
    });
  });
  after(async () => {
    await app.destroy();
    fs.rmSync(build, { recursive: true, force: true });
  });

  it("answers the page at / and /dashboard with the tile URL in its configuration, never cached stale", async () => {
    for (const p of ["/", "/dashboard"]) {
      const r = await fetch(app.url + p);
      expect(r.status).to.equal(200);
      expect(r.headers.get("content-type")).to.equal("text/html; charset=utf-8");
      expect(r.headers.get("cache-control")).to.equal("no-cache");
      const html = await r.text();
      const config = JSON.parse(/content="([^"]*)"/.exec(html)![1].replace(/&quot;/g, '"'));
      expect(config.tilesUrl).to.equal("https://tile.openstreetmap.org/{z}/{x}/{y}.png");
      expect(config.authRequired).to.be.a("boolean");
    }
  });

  it("answers hashed assets with their type, immutable caching, gzip and 304 for a known ETag", async () => {
    const js = await fetch(`${app.url}/assets/main-AB12.js`, { headers: { "Accept-Encoding": "identity" } });
    expect(js.status).to.equal(200);
    expect(js.headers.get("content-type")).to.equal("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).to.equal("public, max-age=31536000, immutable");
    expect(js.headers.get("content-encoding")).to.equal(null);
    expect(await js.text()).to.equal("console.log('citygraph');\n".repeat(200));
    const css = await fetch(`${app.url}/assets/main-CD34.css`);
    expect(css.headers.get("content-type")).to.equal("text/css; charset=utf-8");
    // fetch decompresses by itself: the headers show what travelled
    const gz = await fetch(`${app.url}/assets/main-AB12.js`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).to.equal("gzip");
    expect(Number(gz.headers.get("content-length"))).to.be.below(
      zlib.gzipSync("x".repeat(5200)).length + 200,
    );
    const again = await fetch(`${app.url}/assets/main-AB12.js`, {
      headers: { "If-None-Match": js.headers.get("etag")! },
    });
    expect(again.status).to.equal(304);
  });

  it("answers 404 for an unknown asset and for paths outside the build", async () => {
    for (const p of ["/assets/nope.js", "/assets/..%2Findex.html", "/assets/../../package.json"]) {
      const r = await fetch(app.url + p);
      expect(r.status, p).to.equal(404);
    }
  });

  it("says in words that the dashboard is not built when its folder is empty", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-web-empty-"));
    const other = await startTestApp({ DASHBOARD_DIR: empty });
    try {
      const r = await fetch(`${other.url}/`);
      expect(r.status).to.equal(503);
      expect(await r.text()).to.match(/not built: run `npm run build`/);
    } finally {
      await other.destroy();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
