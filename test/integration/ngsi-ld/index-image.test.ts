import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApp, type RunningApp } from "../../../src/app/start-app";
import { loadConfig, type LogLevel } from "../../../src/config/config";
import type { Logger } from "../../../src/log/logger";
import { forgetAppliedMarker } from "../../../src/store/native/applied-marker";
import { http } from "../helpers/test-app";

const CORE = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
const LD = { "Content-Type": "application/ld+json" };
const LINK = { Link: `<${CORE}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"` };

/** Entities of every kind the attribute and geo indexes keep: scalars, several instances, scopes, shapes. */
const entities = Array.from({ length: 40 }, (_, i) => ({
  id: `urn:ngsi-ld:Sensor:s${i}`,
  type: i % 4 === 0 ? ["Sensor", "Device"] : "Sensor",
  speed: { type: "Property", value: i },
  status: { type: "Property", value: i % 2 ? "ok" : "down" },
  reading: [
    { type: "Property", value: i * 2, datasetId: "urn:ngsi-ld:Dataset:a" },
    { type: "Property", value: { nested: i } },
  ],
  owner: { type: "Relationship", object: `urn:ngsi-ld:Person:p${i % 3}` },
  ...(i % 5 === 0 ? { scope: ["/city/d1", "/city/d2"] } : {}),
  location:
    i % 7 === 0
      ? {
          type: "GeoProperty",
          value: {
            type: "Polygon",
            coordinates: [
              [
                [106.7, 10.7],
                [106.71, 10.7],
                [106.71, 10.71],
                [106.7, 10.7],
              ],
            ],
          },
        }
      : { type: "GeoProperty", value: { type: "Point", coordinates: [106.7 + i / 1000, 10.78] } },
  "@context": CORE,
}));

/** Queries that the attribute, geo and entity indexes answer. */
const QUERIES = [
  "/ngsi-ld/v1/entities?type=Sensor&q=speed%3E20;status==%22ok%22&limit=100",
  "/ngsi-ld/v1/entities?type=Device&limit=100",
  "/ngsi-ld/v1/entities?type=Sensor&q=reading==8&limit=100",
  "/ngsi-ld/v1/entities?type=Sensor&q=owner==%22urn:ngsi-ld:Person:p1%22&limit=100",
  "/ngsi-ld/v1/entities?type=Sensor&scopeQ=/city/d2&limit=100",
  "/ngsi-ld/v1/entities?type=Sensor&georel=near;maxDistance==2000&geometry=Point&coordinates=%5B106.72,10.78%5D&limit=100",
  "/ngsi-ld/v1/entities?type=Sensor&georel=intersects&geometry=Point&coordinates=%5B106.705,10.703%5D&limit=100",
];

/** Ids each query answers, sorted. */
async function answers(url: string): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of QUERIES) {
    const r = await http(url, "GET", q, undefined, LINK);
    expect(r.status, `${q}: ${r.text}`).to.equal(200);
    out.push((r.body as { id: string }[]).map((e) => e.id).sort());
  }
  return out;
}

/** The service in process on `dataDir`, its log lines kept in `lines`. */
async function start(dataDir: string, lines: string[]): Promise<RunningApp> {
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SEED: "off",
    FEED: "off",
    AUTH: "off",
    TEMPORAL_RAW_RETENTION: "0",
    TEMPORAL_HOURLY_RETENTION: "0",
  });
  const log = (level: LogLevel, msg: string, fields?: object): void => {
    lines.push(`${level} ${msg} ${JSON.stringify(fields ?? {})}`);
  };
  const logger: Logger = {
    log,
    debug: (m, f) => log("debug", m, f),
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
  };
  return startApp(config, logger);
}

describe("derived indexes: the image a clean stop writes, read by the next start", function () {
  this.timeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-image-"));
  const image = path.join(dataDir, "indexes", "derived.img");
  let before: string[][];
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("writes the image at a clean stop", async () => {
    const lines: string[] = [];
    const app = await start(dataDir, lines);
    try {
      const r = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/create", entities, LD);
      expect(r.status, r.text).to.equal(201);
      before = await answers(app.url);
      expect(before.map((ids) => ids.length)).to.deep.equal([10, 10, 1, 13, 8, 32, 6]);
    } finally {
      await app.close();
    }
    expect(
      lines.some((l) => l.startsWith("info index image written")),
      lines.join("\n"),
    ).to.equal(true);
    expect(fs.existsSync(image)).to.equal(true);
  });

  it("starts from it: every query answers as before, and the file is taken away", async () => {
    const lines: string[] = [];
    const app = await start(dataDir, lines);
    try {
      expect(lines.some((l) => l.startsWith("info derived indexes loaded from their image"))).to.equal(true);
      expect(lines.some((l) => l.includes("derived indexes filling"))).to.equal(false);
      expect(fs.existsSync(image), "taken at start").to.equal(false);
      expect(await answers(app.url)).to.deep.equal(before);
      // the indexes follow the writes after the image as before
      const r = await http(
        app.url,
        "PATCH",
        "/ngsi-ld/v1/entities/urn:ngsi-ld:Sensor:s3/attrs",
        { status: { type: "Property", value: "down" }, "@context": CORE },
        LD,
      );
      expect(r.status, r.text).to.equal(204);
      const [okFast] = await answers(app.url);
      expect(okFast).to.not.include("urn:ngsi-ld:Sensor:s3");
      expect(okFast).to.have.length(before[0].length);
    } finally {
      await app.close();
    }
  });

  it("is not used when the store holds a later commit than the image", async () => {
    // a start that dies without a clean stop leaves no image; here the image is kept aside and put back
    // after more commits, as if the file had outlived a crash
    const lines: string[] = [];
    const kept = `${image}.kept`;
    fs.copyFileSync(image, kept);
    const app = await start(dataDir, []);
    try {
      const r = await http(app.url, "DELETE", "/ngsi-ld/v1/entities/urn:ngsi-ld:Sensor:s0", undefined, LINK);
      expect(r.status, r.text).to.equal(204);
    } finally {
      await app.close();
    }
    fs.renameSync(kept, image);
    const again = await start(dataDir, lines);
    try {
      expect(lines.some((l) => l.startsWith("info index image not used"))).to.equal(true);
      const [, devices] = await answers(again.url);
      expect(devices).to.not.include("urn:ngsi-ld:Sensor:s0");
      expect(devices).to.have.length(before[1].length - 1);
    } finally {
      await again.close();
    }
  });

  it("starts from an image older than the store when the journal replay passes it, reading just the graphs written since", async () => {
    const kept = `${image}.kept`;
    let app = await start(dataDir, []);
    let expected: string[][];
    try {
      await app.close(); // a clean stop: the image at the store's last seq, kept aside
      fs.copyFileSync(image, kept);
      app = await start(dataDir, []);
      const writes: [string, string, unknown][] = [
        ["DELETE", "/ngsi-ld/v1/entities/urn:ngsi-ld:Sensor:s4", undefined],
        [
          "PATCH",
          "/ngsi-ld/v1/entities/urn:ngsi-ld:Sensor:s5/attrs",
          { status: { type: "Property", value: "down" }, "@context": CORE },
        ],
        ["POST", "/ngsi-ld/v1/entities", { ...entities[8], id: "urn:ngsi-ld:Sensor:n1", "@context": CORE }],
        [
          "PATCH",
          "/ngsi-ld/v1/entities/urn:ngsi-ld:Sensor:s9/attrs",
          {
            location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.0, 10.0] } },
            "@context": CORE,
          },
        ],
      ];
      for (const [method, p, body] of writes) {
        const r = await http(app.url, method, p, body, body === undefined ? LINK : LD);
        expect(r.status, `${method} ${p}: ${r.text}`).to.be.oneOf([201, 204]);
      }
      expected = await answers(app.url);
      expect(expected, "the writes change the answers").to.not.deep.equal(before);
    } finally {
      await app.close();
    }
    // a start whose replay begins before the image's seq (the stores rebuilt from the journal, as after a
    // crash with no compaction since), with the older image in place
    forgetAppliedMarker(path.join(dataDir, "store"));
    fs.renameSync(kept, image);
    const lines: string[] = [];
    const again = await start(dataDir, lines);
    try {
      const loaded = lines.find((l) => l.startsWith("info derived indexes loaded from their image")) ?? "";
      expect(loaded, lines.join("\n")).to.not.equal("");
      expect(JSON.parse(loaded.slice(loaded.indexOf("{"))).graphsReadAgain).to.equal(4);
      expect(lines.some((l) => l.includes("derived indexes filling"))).to.equal(false);
      expect(await answers(again.url)).to.deep.equal(expected);
    } finally {
      await again.close();
    }
  });
});
