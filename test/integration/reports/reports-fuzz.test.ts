import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { pngBombAsync, zipBomb } from "../helpers/bad-images";
import { smallJpeg } from "../helpers/report-fixtures";
import { startTestApp, type TestApp } from "../helpers/test-app";
import { mulberry32 as rng } from "../../../src/demo/feed/prng";

type Obj = Record<string, unknown>;
const COUNT = 2000;

const valid = (): Obj => ({
  category: "accident",
  location: { lat: 10.78, lon: 106.7 },
  description: "Two cars collided in the middle lane",
  reporter: { name: "Fuzz", phone: "0900000000" },
});

const WEIRD: unknown[] = [
  null,
  42,
  -1,
  1e308,
  true,
  "",
  "x",
  [],
  {},
  [1, 2],
  "<script>alert(1)</script>",
  "\u0000\u202e",
  "🚗".repeat(3),
  NaN,
];

/**
 * 2,000 fuzzed submissions (JSON and multipart: wrong types, missing fields, 6
 * images, a 50 MB file, a truncated JPEG, a zip bomb, a 30000x30000 PNG, unicode, script tags) give
 * 4xx only, store nothing, and keep RSS bounded.
 */
describe("citizen reports: fuzzed bad submissions", function () {
  this.timeout(300_000);
  let app: TestApp;
  let jpeg: Buffer;
  let bomb: Buffer;
  let zip: Buffer;
  before(async () => {
    app = await startTestApp();
    jpeg = await smallJpeg();
    bomb = await pngBombAsync(30000);
    zip = zipBomb();
  });
  after(async () => app?.destroy());

  /** One bad JSON body: each case breaks a rule of the endpoint it is sent to. */
  function badJson(r: () => number): { path: string; body: string } {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
    const b = valid();
    const citizen = ["/v1/citizen-reports", "/api/v1/citizen-reports"];
    const all = [...citizen, "/v1/accidents/report", "/api/v1/accidents"];
    const cases: { paths: string[]; apply: () => void }[] = [
      { paths: citizen, apply: () => delete b.category },
      { paths: all, apply: () => delete b[pick(["location", "description"])] },
      {
        paths: citizen,
        apply: () => (b.category = pick(["ACCIDENTS", "fire", "<b>", "🚗", "", 42, [], {}, null])),
      },
      { paths: all, apply: () => (b.location = pick(WEIRD)) },
      {
        paths: all,
        apply: () => (b.description = pick(WEIRD.filter((w) => typeof w !== "string" || [...w].length < 20))),
      },
      {
        paths: all,
        apply: () =>
          (b.images = pick(
            WEIRD.filter((w) => w !== null && !Number.isNaN(w) && !(Array.isArray(w) && w.length === 0)),
          )),
      },
      { paths: all, apply: () => (b.location = { lat: 10.3 - r(), lon: 106.7 }) },
      { paths: all, apply: () => (b.location = { lat: 11.2 + r() * 50, lon: 106.7 }) },
      { paths: all, apply: () => (b.location = { lat: pick(WEIRD), lon: 106.7 }) },
      { paths: all, apply: () => (b.description = "short " + pick(["<i>x</i>", "🚗🚗", "\u202e"])) },
      { paths: all, apply: () => (b.description = "x".repeat(1001 + Math.floor(r() * 3000))) },
      { paths: all, apply: () => (b.description = "bad\u0000control characters in the text") },
      { paths: all, apply: () => (b.images = Array.from({ length: 6 }, () => jpeg.toString("base64"))) },
      { paths: all, apply: () => (b.images = ["!!!not base64!!!"]) },
      {
        paths: all,
        apply: () => (b.images = [jpeg.subarray(0, Math.floor(jpeg.length / 2)).toString("base64")]),
      },
      { paths: all, apply: () => (b.images = [zip.toString("base64")]) },
      {
        paths: all,
        apply: () => (b.images = [Buffer.from("just some text, not an image").toString("base64")]),
      },
      { paths: all, apply: () => (b.severity = pick(["catastrophic", 3, "LOWEST", true])) },
      {
        paths: ["/v1/citizen-reports", "/v1/accidents/report"],
        apply: () => (b.reporter = pick([42, [1], "x".repeat(500)])),
      },
    ];
    const c = pick(cases);
    c.apply();
    const raw = JSON.stringify(b);
    return { path: pick(c.paths), body: r() < 0.05 ? raw.slice(0, Math.floor(raw.length / 2)) : raw };
  }

  /** One bad form. */
  function badForm(r: () => number): FormData {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
    const fields: Record<string, string> = {
      type: "accident",
      title: "Crash at the crossing",
      description: "A car hit a motorbike at the crossing",
      latitude: "10.78",
      longitude: "106.70",
      severity: "high",
    };
    let files: Blob[] = [new Blob([jpeg], { type: "image/jpeg" })];
    const cases: (() => void)[] = [
      () => delete fields[pick(Object.keys(fields).filter((k) => k !== "severity"))],
      () => (fields.title = "short"),
      () => (fields.title = "t".repeat(101)),
      () => (fields.latitude = pick(["abc", "99", "10.29", "", "1e9"])),
      () => (fields.type = pick(["fire", "ACCIDENT!", "🚗"])),
      () => (fields.is_anonymous = "perhaps"),
      () => (files = Array.from({ length: 6 }, () => new Blob([jpeg], { type: "image/jpeg" }))),
      () => (files = [new Blob([jpeg.subarray(0, jpeg.length - 40)], { type: "image/jpeg" })]),
      () => (files = [new Blob([zip], { type: "application/zip" })]),
      () => (files = [new Blob(["<script>alert(1)</script>"], { type: "text/html" })]),
    ];
    pick(cases)();
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    for (const b of files) f.append("images", b, "photo.jpg");
    return f;
  }

  async function countStored(): Promise<number> {
    const res = await fetch(`${app.url}/ngsi-ld/v1/entities?type=CitizenReport&count=true&limit=0`, {
      headers: {
        Link: '<https://w3id.org/citygraph/contexts/traffic.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"',
      },
    });
    await res.arrayBuffer();
    return Number(res.headers.get("NGSILD-Results-Count") ?? "0");
  }

  it(`answers ${COUNT} bad submissions with 4xx only, stores nothing, keeps RSS bounded`, async () => {
    const r = rng(20251125);
    const statuses = new Map<number, number>();
    const note = (s: number, what: string) => {
      statuses.set(s, (statuses.get(s) ?? 0) + 1);
      expect(s, what).to.be.within(400, 499);
    };
    const post = (p: string, body: string | FormData, headers: Record<string, string> = {}) =>
      fetch(app.url + p, { method: "POST", body, headers }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      });
    // the heavy cases, once each
    const big = Buffer.alloc(50 * 1024 * 1024, 0xff);
    const bigForm = new FormData();
    bigForm.set("type", "accident");
    bigForm.append("images", new Blob([big], { type: "image/jpeg" }), "big.jpg");
    note(await post("/v1/citizen-reports", bigForm), "50 MB file");
    note(
      await post("/v1/citizen-reports", JSON.stringify({ ...valid(), images: [big.toString("base64")] }), {
        "Content-Type": "application/json",
      }),
      "50 MB base64",
    );
    for (const p of ["/v1/citizen-reports", "/api/v1/citizen-reports"]) {
      note(
        await post(p, JSON.stringify({ ...valid(), images: [bomb.toString("base64")] }), {
          "Content-Type": "application/json",
        }),
        "PNG bomb JSON",
      );
      const f = new FormData();
      for (const [k, v] of Object.entries({
        type: "accident",
        title: "Crash at the crossing",
        description: "A car hit a motorbike at the crossing",
        latitude: "10.78",
        longitude: "106.7",
      }))
        f.set(k, v);
      f.append("images", new Blob([bomb], { type: "image/png" }), "bomb.png");
      note(await post(p, f), "PNG bomb form");
    }
    const rssStart = process.memoryUsage().rss;
    let rssMax = rssStart;
    for (let i = 0; i < COUNT; i += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, COUNT - i) }, async (_, k) => {
          if ((i + k) % 3 === 0) note(await post("/v1/citizen-reports", badForm(r)), `form #${i + k}`);
          else {
            const c = badJson(r);
            note(
              await post(c.path, c.body, { "Content-Type": r() < 0.03 ? "text/plain" : "application/json" }),
              `json #${i + k} ${c.path} ${c.body.slice(0, 300)}`,
            );
          }
        }),
      );
      rssMax = Math.max(rssMax, process.memoryUsage().rss);
    }
    expect(await countStored()).to.equal(0);
    const media = path.join(app.dataDir, "media");
    expect(fs.existsSync(media) ? fs.readdirSync(media) : []).to.deep.equal([]);
    expect(rssMax - rssStart, `RSS grew by ${Math.round((rssMax - rssStart) / 1e6)} MB`).to.be.lessThan(
      400e6,
    );
    expect([...statuses.keys()].every((s) => s >= 400 && s < 500)).to.equal(true);
  });
});
