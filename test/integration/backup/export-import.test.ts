import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { runTool } from "./backup-cli";

const CORE = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
const LD = { "Content-Type": "application/ld+json" };
const CORE_LINK = {
  Link: `<${CORE}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
};

/** Entities of every attribute kind: property with sub-properties and datasetId, geo, relationship, language map. */
const entities = Array.from({ length: 30 }, (_, i) => ({
  id: `urn:ngsi-ld:Thing:x${i}`,
  type: "Thing",
  speed: { type: "Property", value: i * 1.5, unitCode: "KMH", observedAt: "2026-01-01T00:00:00Z" },
  reading: [
    { type: "Property", value: { a: i, b: [1, "two"] }, datasetId: "urn:ngsi-ld:Dataset:a" },
    { type: "Property", value: "plain", accuracy: { type: "Property", value: 0.5 } },
  ],
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7 + i / 1000, 10.78] } },
  near: { type: "Relationship", object: `urn:ngsi-ld:Thing:x${(i + 1) % 30}` },
  label: { type: "LanguageProperty", languageMap: { en: `thing ${i}`, vi: `vật ${i}` } },
  "@context": CORE,
}));

/**
 * An answer with object members and array items in one order: a graph the fill's commit left in the graph
 * cache renders in the order it was written, one read from RocksDB in the store's; JSON-LD gives neither
 * order a meaning (members, and the values of a property, are unordered), so both are the same entity.
 */
function canonical(x: unknown): unknown {
  if (Array.isArray(x))
    return x.map(canonical).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  if (x === null || typeof x !== "object") return x;
  return Object.fromEntries(
    Object.entries(x)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, canonical(v)]),
  );
}

async function allThings(base: string): Promise<unknown[]> {
  const r = await http(base, "GET", "/ngsi-ld/v1/entities?type=Thing&limit=1000", undefined, CORE_LINK);
  expect(r.status, r.text).to.equal(200);
  return (r.body as { id: string }[]).sort((a, b) => a.id.localeCompare(b.id)).map(canonical);
}

describe("export a tenant's graph and import it into an empty store", function () {
  this.timeout(120_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-export-"));
  let app: TestApp;
  let imported: TestApp | undefined;
  let original: unknown[];

  before(async () => {
    app = await startTestApp();
    const r = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/create", entities, LD);
    expect(r.status, r.text).to.equal(201);
    const sub = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/subscriptions",
      {
        type: "Subscription",
        entities: [{ type: "Thing" }],
        notification: { endpoint: { uri: "http://127.0.0.1:9/x" } },
        "@context": CORE,
      },
      LD,
    );
    expect(sub.status, sub.text).to.equal(201);
    original = await allThings(app.url);
    expect(original).to.have.length(30);
  });
  afterEach(async () => {
    await imported?.destroy();
    imported = undefined;
  });
  after(async () => {
    await app.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  for (const format of ["nquads", "trig"] as const) {
    it(`gives the same entities after an export as ${format} and an import`, async () => {
      const file = path.join(tmp, `export.${format === "nquads" ? "nq" : "trig"}.gz`);
      const e = await runTool("export", ["--url", app.url, "--out", file, "--format", format]);
      expect(e.code, e.stderr).to.equal(0);
      const text = gunzipSync(fs.readFileSync(file)).toString("utf8");
      expect(text).to.include("<urn:ngsi-ld:Thing:x7>");
      expect(text, "internal graphs stay out").not.to.include("urn:citygraph:internal:");
      const dir = path.join(tmp, `imported-${format}`);
      const i = await runTool("import", [file], { DATA_DIR: dir });
      expect(i.code, i.stderr).to.equal(0);
      expect(i.stdout).to.match(/imported \d+ quads in 30 graphs/);
      imported = await startTestApp({}, dir);
      expect(await allThings(imported.url)).to.deep.equal(original);
      const subs = await http(imported.url, "GET", "/ngsi-ld/v1/subscriptions", undefined, CORE_LINK);
      expect(subs.body, "subscriptions are the broker's state, not the graph").to.deep.equal([]);
    });
  }

  it("streams GET /v1/admin/export as gzip, not to be stored, and answers 400 / 404 for a bad format or an empty tenant", async () => {
    const r = await fetch(`${app.url}/v1/admin/export?format=trig`);
    expect(r.status).to.equal(200);
    expect(r.headers.get("content-type")).to.equal("application/gzip");
    expect(r.headers.get("cache-control"), "a tenant's whole graph stays out of caches").to.equal("no-store");
    expect(r.headers.get("content-disposition")).to.match(
      /^attachment; filename="citygraph-default-\d{8}T\d{6}Z\.trig\.gz"$/,
    );
    const trig = gunzipSync(Buffer.from(await r.arrayBuffer())).toString("utf8");
    expect(trig).to.match(/^<urn:ngsi-ld:Thing:x\d+> \{\n/m);
    const bad = await http(app.url, "GET", "/v1/admin/export?format=turtle");
    expect(bad.status).to.equal(400);
    expect(JSON.stringify(bad.body)).to.include("format");
    const none = await http(app.url, "GET", "/v1/admin/export?tenant=nobody");
    expect(none.status).to.equal(404);
  });

  it("refuses to import into a folder that is not empty, or a file that does not parse", async () => {
    const dir = path.join(tmp, "full");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "x"), "");
    const file = path.join(tmp, "bad.nq");
    fs.writeFileSync(file, "<urn:a> <urn:b> <urn:c> <urn:g> .\n<urn:a> <urn:b> broken .\n");
    const full = await runTool("import", [file], { DATA_DIR: dir });
    expect(full.code).to.equal(1);
    expect(full.stderr).to.include("is not empty");
    const empty = path.join(tmp, "empty");
    const parse = await runTool("import", [file], { DATA_DIR: empty });
    expect(parse.code).to.equal(1);
    expect(parse.stderr).to.match(/line 2|broken|Unexpected|expect/i);
    expect(fs.existsSync(empty)).to.equal(false);
  });
});
