import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { loadStaticFolder, staticFile } from "../../../../src/api/dashboard/static-files";
import { injectConfig } from "../../../../src/api/dashboard/dashboard-routes";

describe("dashboard static files", () => {
  it("gives each file its content type, a strong ETag and a gzip form when worth it", () => {
    const js = staticFile("main-ABC.js", Buffer.from("console.log(1);".repeat(100)));
    expect(js.contentType).to.equal("text/javascript; charset=utf-8");
    expect(js.etag).to.match(/^"[A-Za-z0-9_-]{22}"$/);
    expect(zlib.gunzipSync(js.gzip!).toString()).to.equal("console.log(1);".repeat(100));
    const png = staticFile("layers.png", Buffer.alloc(2000));
    expect(png.contentType).to.equal("image/png");
    expect(png.gzip).to.equal(undefined);
    expect(staticFile("a.css", Buffer.from("a{}")).gzip, "tiny files stay plain").to.equal(undefined);
    expect(staticFile("x.unknown", Buffer.from("x")).contentType).to.equal("application/octet-stream");
    expect(staticFile("a.js", Buffer.from("1")).etag).to.not.equal(staticFile("a.js", Buffer.from("2")).etag);
  });

  it("reads the files of a folder, not its subfolders, and nothing when it is missing", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-static-"));
    try {
      fs.writeFileSync(path.join(dir, "main.css"), "body{}");
      fs.mkdirSync(path.join(dir, "sub"));
      fs.writeFileSync(path.join(dir, "sub", "x.js"), "1");
      expect([...loadStaticFolder(dir).keys()]).to.deep.equal(["main.css"]);
      expect(loadStaticFolder(path.join(dir, "none")).size).to.equal(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("puts the client configuration into the page, escaped for an attribute", () => {
    const html = '<meta name="citygraph-config" content="__CITYGRAPH_CONFIG__" />';
    const out = injectConfig(html, {
      tilesUrl: 'https://t/{z}/{x}/{y}.png?a="<b>"&c',
      authRequired: true,
      sparqlPrefixes: { traffic: "https://w3id.org/citygraph/traffic#" },
    });
    const content = /content="([^"]*)"/.exec(out)![1];
    expect(content).to.not.match(/[<"]/);
    const decoded = content
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&amp;/g, "&");
    expect(JSON.parse(decoded)).to.deep.equal({
      tilesUrl: 'https://t/{z}/{x}/{y}.png?a="<b>"&c',
      authRequired: true,
      sparqlPrefixes: { traffic: "https://w3id.org/citygraph/traffic#" },
    });
  });
});
