import { expect } from "chai";
import { RestBClient } from "../helpers/rest-b-client";
import { accidentDocB, prng, upsertDocs } from "../helpers/rest-b-fixture";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { entity, geoProperty, point, property } from "../../../src/demo/seed/ngsi-ld-doc";

type CursorPage<T> = {
  data: T[];
  pagination: { next_cursor: string | null; has_more: boolean; limit: number };
};
type Err = { error: { code: string; message: string; details: Record<string, unknown> } };
type Item = { id: string };

const HOUR = 3_600_000;
const SEVERITIES = ["minor", "moderate", "severe", "critical"];

/** Walks a list in the cursor form, calling `between` while each page is being fetched. */
async function walk(
  api: RestBClient,
  path: string,
  between: (page: number) => Promise<void> = async () => undefined,
) {
  const seen: string[] = [];
  let cursor = "";
  for (let page = 0; page < 1000; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const [r] = await Promise.all([
      api.get(`${path}${sep}cursor=${encodeURIComponent(cursor)}`),
      between(page),
    ]);
    expect(r.status, r.text).to.equal(200);
    const b = r.body as CursorPage<Item>;
    seen.push(...b.data.map((x) => x.id));
    expect(b.pagination.has_more).to.equal(b.pagination.next_cursor !== null);
    if (!b.pagination.next_cursor) return seen;
    cursor = b.pagination.next_cursor;
  }
  throw new Error("the walk did not end");
}

describe("REST variant B lists: the cursor form, concurrent writes, A and B agreeing, fuzzed parameters", function () {
  this.timeout(180_000);
  let app: TestApp;
  let api: RestBClient;
  // set when the data is written: the suite may load this file long before it runs
  let now = Date.now();
  const rnd = prng(2020);
  let made = 0;
  const newAccidents = (n: number, t: () => number) =>
    Array.from({ length: n }, () =>
      accidentDocB({
        id: `b20-new-${made++}`,
        lon: 106.6 + rnd() * 0.2,
        lat: 10.7 + rnd() * 0.2,
        t: t(),
        severity: SEVERITIES[Math.floor(rnd() * 4)],
      }),
    );

  before(async () => {
    now = Date.now();
    app = await startTestApp({ SEED: "on" });
    api = new RestBClient(app.url);
    await api.init();
    const docs = Array.from({ length: 60 }, (_, i) =>
      accidentDocB({
        id: `b20-${String(i).padStart(2, "0")}`,
        lon: 106.6 + rnd() * 0.2,
        lat: 10.7 + rnd() * 0.2,
        // several share a timestamp: ties are broken by id
        t: now - Math.floor(i / 3) * HOUR,
        severity: SEVERITIES[i % 4],
        camera: String(i * 7),
      }),
    );
    await upsertDocs(app.url, docs);
  });
  after(async () => app?.destroy());

  it("walks the cameras with cursors: the same 701 as the page form, none twice", async () => {
    const ids = await walk(api, "/api/v1/cameras?limit=100");
    expect(ids).to.have.length(701);
    expect(new Set(ids).size).to.equal(701);
    const paged: string[] = [];
    for (let p = 1; p <= 8; p++) {
      const b = await api.ok<{ cameras: Item[] }>(`/api/v1/cameras?limit=100&page=${p}`);
      paged.push(...b.cameras.map((c) => c.id));
    }
    expect(ids).to.deep.equal(paged);
  });

  it("returns no accident twice and skips none while accidents are written between and during the pages", async () => {
    const before = (await walk(api, "/api/v1/accidents?limit=50")).sort();
    expect(before).to.have.length(60);
    // newer, older and same-time accidents land while each page of 7 is read
    const seen = await walk(api, "/api/v1/accidents?limit=7", async () => {
      await upsertDocs(app.url, [
        ...newAccidents(1, () => now + HOUR),
        ...newAccidents(1, () => now - 100 * HOUR),
        ...newAccidents(1, () => now - 10 * HOUR),
      ]);
    });
    expect(new Set(seen).size, "no item twice").to.equal(seen.length);
    expect(
      before.filter((id) => !seen.includes(id)),
      "none skipped",
    ).to.deep.equal([]);
    expect(made).to.be.above(20);
  });

  it("returns no camera twice and skips none while cameras are added during the walk", async () => {
    let n = 0;
    const seen = await walk(api, "/api/v1/cameras?limit=40", async (page) => {
      const id = page % 2 ? `zz-b20-${n++}` : String(5000 + n++);
      await upsertDocs(app.url, [
        entity(`urn:ngsi-ld:TrafficCamera:${id}`, "TrafficCamera", {
          name: property(`New camera ${id}`),
          location: geoProperty(point(106.7, 10.78)),
          status: property("active"),
          capabilities: property(["vehicle_count"]),
        }),
      ]);
    });
    expect(new Set(seen).size).to.equal(seen.length);
    const originals = seen.filter((id) => /^\d+$/.test(id) && Number(id) < 5000);
    expect(originals).to.have.length(701);
  });

  it("refuses a forged, truncated, foreign or mixed cursor with 400 INVALID_PARAMETER", async () => {
    const first = await api.ok<CursorPage<Item>>("/api/v1/accidents?cursor=&limit=5&severity=minor");
    const c = first.pagination.next_cursor!;
    const [body, mac] = c.split(".");
    const decoded = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as [string, unknown[]];
    decoded[1][0] = Number(decoded[1][0]) + 1;
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString("base64url")}.${mac}`;
    const cases = [
      `/api/v1/accidents?severity=minor&cursor=${encodeURIComponent(forged)}`,
      `/api/v1/accidents?severity=minor&cursor=${encodeURIComponent(c.slice(0, -4))}`,
      `/api/v1/accidents?severity=minor&cursor=${encodeURIComponent(c.slice(5))}`,
      `/api/v1/accidents?severity=severe&cursor=${encodeURIComponent(c)}`,
      `/api/v1/cameras?cursor=${encodeURIComponent(c)}`,
      `/api/v1/accidents?severity=minor&page=2&cursor=${encodeURIComponent(c)}`,
      `/api/v1/accidents?cursor=%00%FF`,
      `/api/v1/accidents?cursor=${"A".repeat(2000)}`,
    ];
    for (const p of cases) {
      const r = await api.get(p);
      expect(r.status, p).to.equal(400);
      expect((r.body as Err).error.code, p).to.equal("INVALID_PARAMETER");
      expect((r.body as Err).error.details.parameter, p).to.equal("cursor");
    }
    const ok = await api.ok<CursorPage<Item>>(
      `/api/v1/accidents?severity=minor&limit=5&cursor=${encodeURIComponent(c)}`,
    );
    expect(ok.data.length).to.be.above(0);
  });

  it("keeps its cursors valid over a restart (the key lives in DATA_DIR)", async () => {
    const first = await api.ok<CursorPage<Item>>("/api/v1/cameras?cursor=&limit=10");
    await app.close();
    app = await startTestApp({ SEED: "on" }, app.dataDir);
    api = new RestBClient(app.url);
    await api.init();
    const next = await api.ok<CursorPage<Item>>(
      `/api/v1/cameras?limit=10&cursor=${encodeURIComponent(first.pagination.next_cursor!)}`,
    );
    expect(next.data[0].id).to.equal("10");
  });

  it("shows the same facts in A and B for 20 random cameras and 20 random accidents", async () => {
    const r = prng(19);
    const pick = <T>(xs: T[], n: number) => [...xs].sort(() => r() - 0.5).slice(0, n);
    const camIds = (await walk(api, "/api/v1/cameras?limit=100")).filter(
      (id) => /^\d+$/.test(id) && Number(id) < 5000,
    );
    for (const id of pick(camIds, 20)) {
      const a = (await http(app.url, "GET", `/v1/cameras/${id}`)).body as Record<string, unknown>;
      const b = await api.ok<Record<string, unknown>>(`/api/v1/cameras/${id}`);
      for (const k of ["id", "name", "status", "last_update", "stream_url"])
        expect(b[k], `camera ${id} ${k}`).to.deep.equal(a[k]);
      const [la, lb] = [a.location, b.location] as { lat: number; lon: number }[];
      expect([lb.lat, lb.lon]).to.deep.equal([la.lat, la.lon]);
    }
    const accIds = await walk(api, "/api/v1/accidents?limit=100");
    for (const id of pick(accIds, 20)) {
      const a = (await http(app.url, "GET", `/v1/accidents/${id}`)).body as Record<string, unknown>;
      const b = await api.ok<Record<string, unknown>>(`/api/v1/accidents/${id}`);
      for (const k of [
        "id",
        "timestamp",
        "location",
        "severity",
        "vehicles_involved",
        "injuries",
        "status",
        "camera_id",
        "confidence",
        "images",
      ]) {
        expect(b[k], `accident ${id} ${k}`).to.deep.equal(a[k]);
      }
      const ta = (a.timeline as { timestamp: string; event: string }[]).map((e) => [e.timestamp, e.event]);
      const tb = (b.timeline as { timestamp: string; event: string }[]).map((e) => [e.timestamp, e.event]);
      expect(tb, `accident ${id} timeline`).to.deep.equal(ta);
    }
  });

  it("never answers a fuzzed parameter with a 5xx, and every answer matches the document", async () => {
    const r = prng(404);
    const junk = () => {
      const pool = [
        "",
        " ",
        "-1",
        "0",
        "1e309",
        "99999999999999999999",
        "NaN",
        "null",
        "[]",
        "{}",
        "10.7,106.7",
        "10.7,106.7,1",
        "91,181,5",
        "quan-1",
        "Quận 1",
        "%F0%9F%9A%97",
        "2026-02-30T25:61:00Z",
        "9999-12-31T23:59:59Z",
        "0001-01-01T00:00:00Z",
        "1m",
        "1h",
        "a,b,c",
        "accidents,avg_speed",
        "x".repeat(3000),
        "' OR 1=1 --",
        "../../etc/passwd",
      ];
      return encodeURIComponent(pool[Math.floor(r() * pool.length)]).replace(
        /%25F0%259F%259A%2597/,
        "%F0%9F%9A%97",
      );
    };
    const routes: [string, string[]][] = [
      ["/api/v1/cameras", ["page", "limit", "status", "location", "cursor"]],
      ["/api/v1/cameras/0", []],
      ["/api/v1/cameras/0/stats", ["start_time", "end_time"]],
      ["/api/v1/cameras/0/image", ["timestamp"]],
      [
        "/api/v1/accidents",
        ["status", "severity", "start_time", "end_time", "location", "page", "limit", "cursor"],
      ],
      ["/api/v1/accidents/b20-01", []],
      ["/api/v1/traffic/realtime", ["zone_id"]],
      ["/api/v1/traffic/forecast", ["zone_id", "hours"]],
      ["/api/v1/traffic/congestion-zones", []],
      ["/api/v1/traffic/flow", ["camera_id", "start_time", "end_time", "interval", "limit", "cursor"]],
      ["/api/v1/weather/current", ["location"]],
      ["/api/v1/weather/forecast", ["hours", "location"]],
      ["/api/v1/air-quality", ["location"]],
      ["/api/v1/analytics/patterns", []],
      ["/api/v1/analytics/zones/quan-1", ["start_time", "end_time", "metrics"]],
    ];
    let calls = 0;
    for (const [path, params] of routes) {
      for (let i = 0; i < 25; i++) {
        const q = [...params, "unknown_param"]
          .filter(() => r() < 0.6)
          .flatMap((p) => (r() < 0.15 ? [`${p}=${junk()}`, `${p}=${junk()}`] : [`${p}=${junk()}`]));
        const url = `${path}?${q.join("&")}`;
        const res = await api.get(url);
        calls++;
        expect(res.status, url).to.be.below(500);
      }
    }
    for (const p of [
      "/api/v1/cameras/%F0%9F%9A%97",
      "/api/v1/accidents/%00",
      `/api/v1/cameras/${"x".repeat(3000)}/stats`,
      "/api/v1/analytics/zones/%E2%80%AE",
    ]) {
      expect((await api.get(p)).status, p).to.be.below(500);
      calls++;
    }
    expect(calls).to.be.above(370);
  });
});
