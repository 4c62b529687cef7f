import http from "node:http";
import type { AddressInfo } from "node:net";
import { booleanPointInPolygon, distance } from "@turf/turf";
import { expect } from "chai";
import sharp from "sharp";
import { RestBClient } from "../helpers/rest-b-client";
import {
  accidentDocB,
  airDocB,
  flowDocB,
  prng,
  upsertDocs,
  weatherDocB,
  type CamPlace,
} from "../helpers/rest-b-fixture";
import { http as call, startTestApp, type TestApp } from "../helpers/test-app";
import { TRAFFIC_ENTITY_CONTEXT } from "../../../src/domain/vocabulary";

type Loc = { lat: number; lon: number; address?: string };
type Cam = { id: string; name: string; location: Loc; status: string; capabilities: string[] };
type PageInfo = {
  page: number;
  limit: number;
  total: number;
  pages: number;
  next: string | null;
  prev: string | null;
};
type Acc = {
  id: string;
  timestamp: string;
  location: Loc;
  severity: string;
  status: string;
  camera_id: string | null;
};
type Err = { error: { code: string; message: string; details: Record<string, unknown> } };

const MIN = 60_000;
const HOUR = 60 * MIN;
const iso = (t: number) => new Date(t).toISOString();

describe("REST variant B (/api/v1) on the seeded HCMC graph", function () {
  this.timeout(120_000);
  let app: TestApp;
  let api: RestBClient;
  let snapshots: http.Server;
  const snapshotHits: string[] = [];
  // set when the data is written: the suite may load this file long before it runs
  let now = Date.now();
  // three Quận 1 cameras with 3 hours of 5-minute history (the last hour congested for the first)
  let cams: CamPlace[] = [];
  const accidents: { id: string; lon: number; lat: number; t: number; severity: string; status: string }[] =
    [];

  before(async () => {
    now = Date.now();
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#336699" } })
      .jpeg()
      .toBuffer();
    snapshots = http.createServer((req, res) => {
      snapshotHits.push(req.url ?? "");
      res.writeHead(200, { "Content-Type": "image/jpeg" }).end(jpeg);
    });
    await new Promise<void>((r) => snapshots.listen(0, "127.0.0.1", r));
    const port = (snapshots.address() as AddressInfo).port;
    app = await startTestApp({ SEED: "on", CAMERA_SNAPSHOT_URL: `http://127.0.0.1:${port}/snap/{id}.jpg` });
    api = new RestBClient(app.url);
    await api.init();
    const q1 = await api.ok<{ cameras: Cam[] }>("/api/v1/cameras?location=quan-1&limit=3");
    cams = q1.cameras.map((c) => ({ id: c.id, lat: c.location.lat, lon: c.location.lon }));
    for (let k = 35; k >= 0; k--) {
      const t = Math.floor(now / (5 * MIN)) * 5 * MIN - k * 5 * MIN;
      const docs: object[] = cams.map((c, i) =>
        flowDocB(c, t, 50 + i * 10 + (k % 12), i === 0 && k < 12 ? 9 : 40),
      );
      docs.push(weatherDocB("quan-1", 106.7, 10.776, t, 30, 0.3));
      docs.push(airDocB("quan-1", 106.7, 10.776, t, k === 0 ? 40.2 : 10));
      await upsertDocs(app.url, docs);
    }
    const r = prng(20);
    const sev = ["minor", "moderate", "severe", "critical"];
    const st = ["active", "investigating", "resolved"];
    for (let i = 0; i < 40; i++) {
      accidents.push({
        id: `b20-${String(i).padStart(2, "0")}`,
        lon: 106.62 + r() * 0.16,
        lat: 10.72 + r() * 0.14,
        t: now - Math.floor(r() * 48 * HOUR),
        severity: sev[Math.floor(r() * 4)],
        status: st[Math.floor(r() * 3)],
      });
    }
    // a hotspot: four accidents within 100 m, three of them severe
    for (const [i, severity] of ["severe", "minor", "severe", "severe"].entries()) {
      accidents.push({
        id: `b20-hot-${i}`,
        lon: 106.7 + i * 0.0003,
        lat: 10.78,
        t: now - (i + 1) * HOUR,
        severity,
        status: "resolved",
      });
    }
    await upsertDocs(
      app.url,
      accidents.map((a, i) =>
        accidentDocB({
          ...a,
          camera: i % 2 === 0 ? cams[i % 3].id : undefined,
          description: `accident ${a.id}`,
          boxes: i === 0 ? [{ x: 10, y: 20, width: 100, height: 60, label: "car" }] : undefined,
        }),
      ),
    );
  });
  after(async () => {
    await app?.destroy();
    snapshots?.close();
  });

  describe("cameras (§4.2, page form §4.8)", () => {
    it("pages with page (default 1) and limit (default 20): pagination{page,limit,total,pages}, next/prev links and a Link header", async () => {
      const first = await api.get("/api/v1/cameras");
      const b = first.body as { cameras: Cam[]; pagination: PageInfo };
      expect(b.cameras).to.have.length(20);
      expect(b.pagination).to.deep.equal({
        page: 1,
        limit: 20,
        total: 701,
        pages: 36,
        next: "/api/v1/cameras?page=2",
        prev: null,
      });
      expect(first.headers.get("link")).to.equal('</api/v1/cameras?page=2>; rel="next"');
      const p3 = await api.ok<{ cameras: Cam[]; pagination: PageInfo }>("/api/v1/cameras?page=3&limit=20");
      expect(p3.pagination).to.include({ page: 3, limit: 20, total: 701, pages: 36 });
      expect(p3.pagination.prev).to.equal("/api/v1/cameras?page=2&limit=20");
      expect(p3.pagination.next).to.equal("/api/v1/cameras?page=4&limit=20");
      const all = await api.ok<{ cameras: Cam[] }>("/api/v1/cameras?limit=100&page=1");
      expect(p3.cameras.map((c) => c.id)).to.deep.equal(all.cameras.slice(40, 60).map((c) => c.id));
      const next = await api.ok<{ cameras: Cam[]; pagination: PageInfo }>(p3.pagination.next!);
      expect(next.pagination.page).to.equal(4);
      const last = await api.ok<{ cameras: Cam[]; pagination: PageInfo }>("/api/v1/cameras?page=36");
      expect(last.cameras).to.have.length(1);
      expect(last.pagination.next).to.equal(null);
      const past = await api.ok<{ cameras: Cam[]; pagination: PageInfo }>("/api/v1/cameras?page=99");
      expect(past.cameras).to.deep.equal([]);
      expect(past.pagination.prev).to.equal("/api/v1/cameras?page=36");
    });

    it("filters by status and by location (a district's id or name: cameras inside its polygon)", async () => {
      const district = await call(
        app.url,
        "GET",
        "/ngsi-ld/v1/entities/urn:ngsi-ld:District:quan-1?options=keyValues",
      );
      const polygon = (district.body as { location: { type: "MultiPolygon"; coordinates: number[][][][] } })
        .location;
      for (const name of ["quan-1", "Quận 1", "district 1"]) {
        const b = await api.ok<{ cameras: Cam[]; pagination: PageInfo }>(
          `/api/v1/cameras?location=${encodeURIComponent(name)}&limit=100`,
        );
        expect(b.pagination.total).to.be.within(10, 100);
        for (const c of b.cameras)
          expect(booleanPointInPolygon([c.location.lon, c.location.lat], polygon), c.id).to.equal(true);
        expect(b.cameras.every((c) => c.location.address?.endsWith("Quận 1"))).to.equal(true);
      }
      const errs = await api.ok<{ cameras: Cam[]; pagination: PageInfo }>(
        "/api/v1/cameras?status=error&limit=100",
      );
      expect(errs.cameras.every((c) => c.status === "error")).to.equal(true);
      const active = await api.ok<{ pagination: PageInfo }>("/api/v1/cameras?status=active");
      const inactive = await api.ok<{ pagination: PageInfo }>("/api/v1/cameras?status=inactive");
      expect(active.pagination.total + inactive.pagination.total + errs.pagination.total).to.equal(701);
      const bad = await api.get("/api/v1/cameras?location=Atlantis");
      expect(bad.status).to.equal(400);
      expect((bad.body as Err).error.details).to.include({ parameter: "location", value: "Atlantis" });
      expect((bad.body as Err).error.details.expected).to.include("Quận 1");
    });

    it("shows a camera's detail with stream_url, last_image, metadata and B capabilities; 404 for an unknown id", async () => {
      const c = await api.ok<
        Cam & { stream_url: string; last_image: string; metadata: Record<string, unknown> }
      >(`/api/v1/cameras/${cams[0].id}`);
      expect(c.capabilities).to.deep.equal(["image"]);
      expect(c.stream_url).to.match(/^https:\/\/giaothong\.hochiminhcity\.gov\.vn\//);
      expect(c.last_image).to.equal(`/api/v1/cameras/${cams[0].id}/image`);
      expect(c.metadata).to.deep.equal({
        resolution: "320x240",
        fps: 0,
        manufacturer: c.metadata.manufacturer,
      });
      const img = await fetch(app.url + c.last_image);
      expect(img.headers.get("content-type")).to.equal("image/jpeg");
      const nf = await api.get("/api/v1/cameras/no-such-camera");
      expect(nf.status).to.equal(404);
      expect((nf.body as Err).error.code).to.equal("NOT_FOUND");
    });

    it("returns the stored frame nearest to ?timestamp=, 404 when none lies within 10 minutes", async () => {
      const id = cams[1].id;
      const latest = await fetch(`${app.url}/api/v1/cameras/${id}/image`);
      expect(latest.status).to.equal(200);
      expect(latest.headers.get("x-image-source")).to.equal("snapshot");
      const taken = Date.parse(latest.headers.get("x-frame-time")!);
      const meta = await sharp(Buffer.from(await latest.arrayBuffer())).metadata();
      expect(meta.format).to.equal("jpeg");
      for (const offset of [-4 * MIN, 3 * MIN]) {
        const r = await fetch(`${app.url}/api/v1/cameras/${id}/image?timestamp=${iso(taken + offset)}`);
        expect(r.status, String(offset)).to.equal(200);
        expect(r.headers.get("x-frame-time")).to.equal(iso(taken));
      }
      const far = await api.get(`/api/v1/cameras/${id}/image?timestamp=${iso(taken - HOUR)}`);
      expect(far.status).to.equal(404);
      expect((far.body as Err).error.message).to.contain("10 minutes");
      const other = await api.get(`/api/v1/cameras/${cams[2].id}/image?timestamp=${iso(taken)}`);
      expect(other.status).to.equal(404);
      const bad = await api.get(`/api/v1/cameras/${id}/image?timestamp=yesterday`);
      expect(bad.status).to.equal(400);
      expect((bad.body as Err).error.details.parameter).to.equal("timestamp");
      await api.get(`/api/v1/cameras/${id}/image`);
    });

    it("gives a camera's stats over start_time..end_time from its history", async () => {
      const from = now - 3 * HOUR - 10 * MIN;
      const s = await api.ok<{
        camera_id: string;
        period: { start: string; end: string };
        stats: Record<string, unknown>;
      }>(`/api/v1/cameras/${cams[0].id}/stats?start_time=${iso(from)}&end_time=${iso(now + MIN)}`);
      let total = 0;
      for (let k = 35; k >= 0; k--) total += 50 + (k % 12);
      expect(s.camera_id).to.equal(cams[0].id);
      expect(s.period).to.deep.equal({ start: iso(from), end: iso(now + MIN) });
      expect(s.stats.total_vehicles).to.equal(total);
      expect(s.stats.avg_speed).to.be.within(9, 40);
      expect(s.stats.peak_hour).to.match(/^\d\d:00-\d\d:00$/);
      // the last hour (12 observations of 5 minutes) ran at 9 km/h against a free flow of 40
      expect(s.stats.congestion_minutes).to.be.within(55, 60);
      const own = accidents.filter((a, i) => i % 2 === 0 && i % 3 === 0 && a.t >= from);
      expect(s.stats.accidents).to.equal(own.length);
      const rev = await api.get(
        `/api/v1/cameras/${cams[0].id}/stats?start_time=${iso(now)}&end_time=${iso(now - HOUR)}`,
      );
      expect(rev.status).to.equal(400);
      expect((rev.body as Err).error.details.parameter).to.equal("end_time");
    });
  });

  describe("accidents (§4.3)", () => {
    it("filters by status, severity and period, newest first", async () => {
      const sev = await api.ok<{ accidents: Acc[]; pagination: PageInfo }>(
        "/api/v1/accidents?severity=severe&limit=100",
      );
      expect(sev.accidents.map((a) => a.id).sort()).to.deep.equal(
        accidents
          .filter((a) => a.severity === "severe")
          .map((a) => a.id)
          .sort(),
      );
      const res = await api.ok<{ accidents: Acc[] }>("/api/v1/accidents?status=resolved&limit=100");
      expect(res.accidents.length).to.equal(accidents.filter((a) => a.status === "resolved").length);
      expect(res.accidents.every((a) => a.status === "resolved")).to.equal(true);
      const from = now - 24 * HOUR;
      const day = await api.ok<{ accidents: Acc[] }>(
        `/api/v1/accidents?start_time=${iso(from)}&end_time=${iso(now)}&limit=100`,
      );
      expect(day.accidents.length).to.equal(accidents.filter((a) => a.t >= from && a.t <= now).length);
      const ts = day.accidents.map((a) => Date.parse(a.timestamp));
      expect(ts).to.deep.equal([...ts].sort((a, b) => b - a));
      const bad = await api.get("/api/v1/accidents?status=closed");
      expect(bad.status).to.equal(400);
      expect((bad.body as Err).error.details).to.include({ parameter: "status", value: "closed" });
    });

    it("answers location=lat,lon,radius_km from the geo index as turf's distance does", async () => {
      const r = prng(7);
      for (let i = 0; i < 6; i++) {
        const lat = 10.74 + r() * 0.1;
        const lon = 106.64 + r() * 0.12;
        const km = 1 + r() * 5;
        const b = await api.ok<{ accidents: Acc[] }>(
          `/api/v1/accidents?location=${lat},${lon},${km}&limit=100`,
        );
        const want = accidents.filter(
          (a) => distance([lon, lat], [a.lon, a.lat], { units: "kilometers" }) <= km,
        );
        expect(b.accidents.map((a) => a.id).sort(), `${lat},${lon},${km}`).to.deep.equal(
          want.map((a) => a.id).sort(),
        );
      }
      for (const bad of ["10.7,106.7", "91,106.7,1", "10.7,106.7,0", "10.7,106.7,500", "a,b,c"]) {
        const e = await api.get(`/api/v1/accidents?location=${bad}`);
        expect(e.status, bad).to.equal(400);
        expect((e.body as Err).error.details.parameter).to.equal("location");
      }
    });

    it("shows an accident's detail with timeline{timestamp,event,source} and detection; 404 for an unknown id", async () => {
      const d = await api.ok<
        Acc & {
          timeline: { event: string; source: string }[];
          detection: Record<string, unknown>;
          description: string;
        }
      >(`/api/v1/accidents/${accidents[0].id}`);
      expect(d.timeline[0]).to.include({ event: "detected", source: "camera_vision" });
      expect(d.description).to.equal(`accident ${accidents[0].id}`);
      expect(d.detection).to.deep.equal({
        model: "camera_vision",
        confidence: 0.87,
        bounding_boxes: [{ x: 10, y: 20, width: 100, height: 60, label: "car" }],
      });
      const plain = await api.ok<{ detection: { bounding_boxes: unknown[] } }>(
        `/api/v1/accidents/${accidents[1].id}`,
      );
      expect(plain.detection.bounding_boxes).to.deep.equal([]);
      expect((await api.get("/api/v1/accidents/nope")).status).to.equal(404);
    });
  });

  describe("POST /api/v1/accidents (§4.3, through the citizen-report path)", () => {
    it("answers created / pending with an id, and refuses a bad body with a 400", async () => {
      const r = await call(app.url, "POST", "/api/v1/accidents", {
        location: { lat: 10.7769, lon: 106.7009 },
        description: "Two motorbikes collided at the roundabout",
        severity: "moderate",
        reported_by: { name: "Lan", contact: "0900000000" },
        images: [],
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ status: "created", verification_status: "pending" });
      expect((r.body as { id: string }).id).to.be.a("string");
      const bad = await call(app.url, "POST", "/api/v1/accidents", { location: { lat: 99, lon: 106.7 } });
      expect(bad.status).to.equal(400);
      expect((bad.body as Err).error.code).to.be.oneOf(["INVALID_PARAMETER", "INVALID_REQUEST"]);
    });
  });

  describe("traffic (§4.4)", () => {
    it("gives realtime zones in B's names: zone_id, numeric congestion_level, status label, cameras", async () => {
      const b = await api.ok<{
        zones: { zone_id: string; congestion_level: number; status: string; cameras: string[] }[];
      }>("/api/v1/traffic/realtime");
      expect(b.zones).to.have.length(22);
      const q1 = b.zones.find((z) => z.zone_id === "quan-1")!;
      expect(q1.cameras).to.include.members(cams.map((c) => c.id));
      expect(q1.congestion_level).to.be.within(0, 100);
      const one = await api.ok<{ zones: { zone_id: string }[] }>(
        "/api/v1/traffic/realtime?zone_id=Qu%E1%BA%ADn%201",
      );
      expect(one.zones.map((z) => z.zone_id)).to.deep.equal(["quan-1"]);
    });

    it("gives congestion zones with a polygon of [lat, lon] and a forecast", async () => {
      const b = await api.ok<{
        zones: {
          zone_id: string;
          cameras: string[];
          congestion_level: number;
          status: string;
          polygon: number[][];
        }[];
      }>("/api/v1/traffic/congestion-zones");
      const jam = b.zones.find((z) => z.cameras.includes(cams[0].id))!;
      expect(jam, JSON.stringify(b)).to.not.equal(undefined);
      expect(jam.congestion_level).to.equal(78); // 100 x (1 - 9/40)
      expect(jam.status).to.equal("severe");
      expect(jam.polygon[0][0]).to.be.within(10, 11);
      const f = await api.ok<{ zone_id: string; forecast: unknown[] }>(
        "/api/v1/traffic/forecast?zone_id=quan-1&hours=3",
      );
      expect(f.zone_id).to.equal("quan-1");
      expect(f.forecast).to.have.length(3);
      expect((await api.get("/api/v1/traffic/forecast")).status).to.equal(400);
      expect(((await api.get("/api/v1/traffic/forecast")).body as Err).error.code).to.equal(
        "INVALID_REQUEST",
      );
    });

    it("aggregates flow observations at 1m, 5m, 15m and 1h with NGSI-LD ids, the same vehicles at every interval", async () => {
      const from = iso(Math.floor(now / HOUR) * HOUR - 2 * HOUR);
      const to = iso(Math.floor(now / HOUR) * HOUR);
      const sums: number[] = [];
      for (const [interval, n] of [
        ["1m", 24],
        ["5m", 24],
        ["15m", 8],
        ["1h", 2],
      ] as const) {
        const b = await api.ok<{
          camera_id: string;
          interval: string;
          observations: {
            id: string;
            intensity: number;
            timestamp: string;
            vehicle_types: Record<string, number>;
          }[];
        }>(
          `/api/v1/traffic/flow?camera_id=${cams[1].id}&start_time=${from}&end_time=${to}&interval=${interval}`,
        );
        expect(b.observations, interval).to.have.length(n);
        expect(b.observations[0].id).to.match(
          new RegExp(`^urn:ngsi-ld:TrafficFlowObserved:${cams[1].id}:${interval}:\\d{8}T\\d{4,6}Z$`),
        );
        const o = b.observations[0];
        expect(Object.values(o.vehicle_types).reduce((x, y) => x + y, 0)).to.equal(o.intensity);
        sums.push(b.observations.reduce((s, x) => s + x.intensity, 0));
      }
      expect(new Set(sums).size, String(sums)).to.equal(1);
      const walk: string[] = [];
      let cursor = "";
      for (;;) {
        const p = await api.ok<{ data: { id: string }[]; pagination: { next_cursor: string | null } }>(
          `/api/v1/traffic/flow?camera_id=${cams[1].id}&start_time=${from}&end_time=${to}&interval=5m&limit=10&cursor=${cursor}`,
        );
        walk.push(...p.data.map((x) => x.id));
        if (!p.pagination.next_cursor) break;
        cursor = encodeURIComponent(p.pagination.next_cursor);
      }
      expect(walk).to.have.length(24);
      const missing = await api.get("/api/v1/traffic/flow");
      expect(missing.status).to.equal(400);
      expect((missing.body as Err).error.code).to.equal("INVALID_REQUEST");
      expect((await api.get("/api/v1/traffic/flow?camera_id=nope")).status).to.equal(404);
      const tooMany = await api.get(
        `/api/v1/traffic/flow?camera_id=${cams[1].id}&start_time=2025-01-01T00:00:00Z&end_time=2025-12-01T00:00:00Z&interval=1m`,
      );
      expect(tooMany.status).to.equal(400);
      expect((tooMany.body as Err).error.details.parameter).to.equal("interval");
      expect((await api.get(`/api/v1/traffic/flow?camera_id=${cams[1].id}&interval=2m`)).status).to.equal(
        400,
      );
    });
  });

  describe("weather and air quality (§4.5)", () => {
    it("gives current weather by lat,lon or zone with uv_index and neither gust nor feels_like, and a forecast", async () => {
      for (const loc of ["10.776,106.7", "quan-1", "District%201"]) {
        const w = await api.ok<Record<string, unknown> & { wind: Record<string, unknown>; uv_index: number }>(
          `/api/v1/weather/current?location=${loc}`,
        );
        expect(w.temperature).to.equal(30);
        expect(w).to.not.have.property("feels_like");
        expect(w.wind).to.not.have.property("gust");
        expect(w.uv_index).to.be.within(0, 13);
      }
      const f = await api.ok<{ forecast: unknown[] }>(
        "/api/v1/weather/forecast?hours=5&location=10.77,106.7",
      );
      expect(f.forecast).to.have.length(5);
      for (const bad of [
        "/api/v1/weather/current?location=95,106",
        "/api/v1/weather/current?location=Atlantis",
        "/api/v1/weather/forecast?hours=500",
      ]) {
        expect((await api.get(bad)).status, bad).to.equal(400);
      }
    });

    it("gives air quality for a location with dominant_pollutant and the EPA category's health implications", async () => {
      const a = await api.ok<{
        aqi: number;
        category: string;
        dominant_pollutant: string;
        health_implications: string;
      }>("/api/v1/air-quality?location=quan-1");
      expect(a).to.include({
        aqi: 113,
        category: "unhealthy_for_sensitive_groups",
        dominant_pollutant: "pm25",
      });
      expect(a.health_implications).to.match(/Sensitive groups/);
    });
  });

  describe("analytics (§4.6)", () => {
    it("gives patterns in B's shape", async () => {
      const p = await api.ok<{ patterns: { type: string; severity: string }[] }>(
        "/api/v1/analytics/patterns",
      );
      expect(p.patterns).to.be.an("array");
    });

    it("gives a zone's metrics over a period, metrics as an array (repeated or comma-separated)", async () => {
      const q = `start_time=${iso(now - 4 * HOUR)}&end_time=${iso(now + MIN)}`;
      const all = await api.ok<{ zone_id: string; metrics: Record<string, unknown> }>(
        `/api/v1/analytics/zones/quan-1?${q}`,
      );
      expect(all.zone_id).to.equal("quan-1");
      expect(Object.keys(all.metrics).sort()).to.deep.equal([
        "accidents",
        "avg_speed",
        "congestion_hours",
        "peak_traffic",
        "total_vehicles",
      ]);
      expect(all.metrics.total_vehicles).to.be.at.least(36 * 150);
      expect(all.metrics.congestion_hours).to.be.a("number");
      const two = await api.ok<{ metrics: Record<string, unknown> }>(
        `/api/v1/analytics/zones/quan-1?${q}&metrics=accidents&metrics=avg_speed`,
      );
      const comma = await api.ok<{ metrics: Record<string, unknown> }>(
        `/api/v1/analytics/zones/quan-1?${q}&metrics=accidents,avg_speed`,
      );
      expect(Object.keys(two.metrics).sort()).to.deep.equal(["accidents", "avg_speed"]);
      expect(comma.metrics).to.deep.equal(two.metrics);
      const bad = await api.get("/api/v1/analytics/zones/quan-1?metrics=accidents,weather");
      expect(bad.status).to.equal(400);
      expect((bad.body as Err).error.details.parameter).to.equal("metrics");
      expect((await api.get("/api/v1/analytics/zones/atlantis")).status).to.equal(404);
    });
  });

  describe("the flow answer after new history (§4.4)", () => {
    it("shows an observation written through NGSI-LD, and one appended to the temporal history, in the next identical request", async () => {
      const cam = cams[2];
      const last = Math.floor(now / (5 * MIN)) * 5 * MIN;
      const path = `/api/v1/traffic/flow?camera_id=${cam.id}&start_time=${iso(last - HOUR)}&end_time=${iso(last + HOUR)}&interval=5m`;
      type Flow = { observations: { timestamp: string; intensity: number; average_speed: number }[] };
      const total = (b: Flow) => b.observations.reduce((s, o) => s + o.intensity, 0);
      const before = await api.ok<Flow>(path);
      expect(before.observations).to.have.length(12);
      expect((await api.ok<Flow>(path)).observations).to.deep.equal(before.observations);

      await upsertDocs(app.url, [flowDocB(cam, last + 5 * MIN, 77, 40)]);
      const afterEntity = await api.ok<Flow>(path);
      expect(afterEntity.observations).to.have.length(13);
      expect(afterEntity.observations[12]).to.include({ timestamp: iso(last), intensity: 77 });
      expect(total(afterEntity)).to.equal(total(before) + 77);

      const at = { observedAt: iso(last + 10 * MIN) };
      const r = await call(
        app.url,
        "POST",
        `/ngsi-ld/v1/temporal/entities/${encodeURIComponent(`urn:ngsi-ld:TrafficFlowObserved:${cam.id}`)}/attrs`,
        {
          intensity: [{ type: "Property", value: 13, ...at }],
          averageVehicleSpeed: [{ type: "Property", value: 22, ...at }],
          "@context": TRAFFIC_ENTITY_CONTEXT,
        },
        { "Content-Type": "application/ld+json" },
      );
      expect(r.status, r.text).to.equal(204);
      const afterTemporal = await api.ok<Flow>(path);
      expect(afterTemporal.observations).to.have.length(14);
      expect(afterTemporal.observations[13]).to.include({
        timestamp: iso(last + 5 * MIN),
        intensity: 13,
        average_speed: 22,
      });
      expect(total(afterTemporal)).to.equal(total(before) + 77 + 13);
    });
  });

  describe("the OpenAPI document", () => {
    it("has had a 200 of every traffic operation checked against it", () => {
      // the citizen report and alert operations are checked by reports/reports.test.ts and reports/alerts.test.ts
      const ops = Object.entries(api.doc.paths).flatMap(([p, m]) =>
        Object.entries(m)
          .filter(([, op]) => !["citizen-reports", "alerts"].includes(op.tags[0]))
          .map(([x]) => `${x} ${p} 200`),
      );
      const missing = ops.filter((o) => !api.checked.has(o) && !o.includes("openapi.json"));
      expect(missing).to.deep.equal([]);
    });
  });
});
