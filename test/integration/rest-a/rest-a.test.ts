import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { booleanPointInPolygon } from "@turf/turf";
import { expect } from "chai";
import sharp from "sharp";
import { RestAClient } from "../helpers/rest-a-client";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { accidentDoc, airDoc, flowDoc, TRAFFIC_LINK, upsert, weatherDoc } from "../helpers/traffic-fixture";
import { TRAFFIC_ENTITY_CONTEXT } from "../../../src/domain/vocabulary";

type Cam = {
  id: string;
  location: { lat: number; lon: number };
  status: string;
  district: { id: string } | null;
};
type Page<K extends string, T> = { total: number; limit: number; offset: number } & Record<K, T[]>;
type Err = { error: { code: string; message: string; details: Record<string, unknown> } };

const MIN = 60_000;
const HOUR = 60 * MIN;
const iso = (t: number) => new Date(t).toISOString();
const dist = (a: Cam, b: Cam) => Math.hypot(a.location.lat - b.location.lat, a.location.lon - b.location.lon);

describe("REST variant A (/v1) on the seeded HCMC graph", function () {
  this.timeout(120_000);
  let app: TestApp;
  let api: RestAClient;
  // set when the suite starts, not when mocha loads the file (a full run reaches it minutes later)
  let now = Date.now();
  let q1: Cam[] = [];
  let q3: Cam;
  const acc = { a1: "t19-a1", a2: "t19-a2", a3: "t19-a3" };

  before(async () => {
    now = Date.now();
    app = await startTestApp({ SEED: "on" });
    api = new RestAClient(app.url);
    await api.init();
    const d1 = (await api.get("/v1/cameras?district=quan-1&limit=100")).body as Page<"cameras", Cam>;
    const first = d1.cameras[0];
    q1 = [...d1.cameras].sort((a, b) => dist(a, first) - dist(b, first)).slice(0, 3);
    q3 = ((await api.get("/v1/cameras?district=quan-3&limit=1")).body as Page<"cameras", Cam>).cameras[0];
    // three hours of history, one observation every 15 minutes; the Quận 1 cameras jam in the last one
    for (let k = 11; k >= 0; k--) {
      const t = now - k * 15 * MIN - MIN;
      const docs: object[] = q1.map((c) => flowDoc({ id: c.id, ...c.location }, t, 100, k === 0 ? 8 : 40));
      docs.push(flowDoc({ id: q3.id, ...q3.location }, t, 100, 30));
      docs.push(weatherDoc("quan-1", 106.7, 10.776, t, 28 + (k % 3), k % 4 === 0 ? 1.2 : 0));
      docs.push(weatherDoc("quan-3", 106.68, 10.784, t, 29, 0));
      docs.push(airDoc("quan-1", 106.7, 10.776, t, k === 0 ? 35.5 : 12));
      await upsert(app.url, docs);
    }
  });
  after(async () => app.destroy());

  describe("cameras (§4.2)", () => {
    it("lists 50 of the 701 cameras by default, and pages with limit and offset", async () => {
      const r = (await api.get("/v1/cameras")).body as Page<"cameras", Cam>;
      expect(r).to.include({ total: 701, limit: 50, offset: 0 });
      expect(r.cameras).to.have.length(50);
      const last = (await api.get("/v1/cameras?limit=100&offset=700")).body as Page<"cameras", Cam>;
      expect(last).to.include({ total: 701, limit: 100, offset: 700 });
      expect(last.cameras).to.have.length(1);
      const p2 = (await api.get("/v1/cameras?limit=2&offset=1")).body as Page<"cameras", Cam>;
      expect(p2.cameras.map((c) => c.id)).to.deep.equal(r.cameras.slice(1, 3).map((c) => c.id));
    });

    it("filters by district through the polygon, whatever the district is called", async () => {
      const d = await http(
        app.url,
        "GET",
        "/ngsi-ld/v1/entities/urn:ngsi-ld:District:quan-1?options=keyValues",
        undefined,
        TRAFFIC_LINK,
      );
      const polygon = (d.body as { location: { type: "MultiPolygon"; coordinates: number[][][][] } })
        .location;
      for (const name of ["quan-1", "Quận 1", "QUAN 1", "District 1", "quận 1"]) {
        const r = (await api.get(`/v1/cameras?limit=100&district=${encodeURIComponent(name)}`)).body as Page<
          "cameras",
          Cam
        >;
        expect(r.total, name).to.equal(76);
        for (const c of r.cameras) {
          expect(c.district?.id).to.equal("quan-1");
          expect(booleanPointInPolygon([c.location.lon, c.location.lat], polygon)).to.equal(true);
        }
      }
      const thuDuc = (await api.get("/v1/cameras?district=Thu%20Duc%20City")).body as Page<"cameras", Cam>;
      expect(thuDuc.total).to.equal(119);
      const bad = (await api.get("/v1/cameras?district=Atlantis")).body as Err;
      expect(bad.error.code).to.equal("INVALID_PARAMETER");
      expect(bad.error.details).to.include({ parameter: "district", value: "Atlantis" });
      expect(bad.error.details.expected).to.include("Quận 1");
    });

    it("filters by status, and the statuses add up to every camera", async () => {
      let sum = 0;
      for (const s of ["active", "inactive", "error"]) {
        const r = (await api.get(`/v1/cameras?status=${s}&limit=100`)).body as Page<"cameras", Cam>;
        for (const c of r.cameras) expect(c.status).to.equal(s);
        sum += r.total;
      }
      expect(sum).to.equal(701);
    });

    it("answers bad parameters with INVALID_PARAMETER and its details", async () => {
      const cases: [string, string, unknown][] = [
        ["/v1/cameras?limit=500", "limit", "500"],
        ["/v1/cameras?limit=0", "limit", "0"],
        ["/v1/cameras?offset=-1", "offset", "-1"],
        ["/v1/cameras?status=broken", "status", "broken"],
        ["/v1/cameras?limit=abc", "limit", "abc"],
      ];
      for (const [p, parameter, value] of cases) {
        const r = await api.get(p);
        expect(r.status, p).to.equal(400);
        const e = (r.body as Err).error;
        expect(e.code).to.equal("INVALID_PARAMETER");
        expect(e.details).to.include({ parameter, value });
        expect(e.details.expected, p).to.not.equal(undefined);
      }
      expect(((await api.get("/v1/cameras?status=broken")).body as Err).error.details.expected).to.deep.equal(
        ["active", "inactive", "error"],
      );
      const nf = await api.get("/v1/cameras/no-such-camera");
      expect(nf.status).to.equal(404);
      expect((nf.body as Err).error.code).to.equal("NOT_FOUND");
    });

    it("shows a camera's detail with statistics from its history", async () => {
      const r = await api.get(`/v1/cameras/${q1[0].id}`);
      const c = r.body as Cam & {
        statistics: { uptime_24h: number; detections_today: number; avg_vehicle_count: number };
      };
      expect(c.id).to.equal(q1[0].id);
      expect(c.status).to.equal("active");
      // 12 observations of 100 vehicles in 12 of the day's 96 quarter hours
      expect(c.statistics.uptime_24h).to.equal(12.5);
      expect(c.statistics.avg_vehicle_count).to.equal(Math.round(1200 / 24));
      expect(c.statistics.detections_today).to.be.within(0, 1200);
    });

    it("shows a camera status set through NGSI-LD PATCH at once", async () => {
      const id = q3.id;
      const p = await http(
        app.url,
        "PATCH",
        `/ngsi-ld/v1/entities/urn:ngsi-ld:TrafficCamera:${id}/attrs`,
        { status: { type: "Property", value: "error" } },
        TRAFFIC_LINK,
      );
      expect(p.status).to.equal(204);
      expect(((await api.get(`/v1/cameras/${id}`)).body as Cam).status).to.equal("error");
      const errs = (await api.get("/v1/cameras?status=error&limit=100")).body as Page<"cameras", Cam>;
      expect(errs.cameras.map((c) => c.id)).to.include(id);
    });

    it("serves the latest image as a real JPEG", async () => {
      const res = await fetch(`${app.url}/v1/cameras/${q1[0].id}/latest-image`);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.equal("image/jpeg");
      expect(res.headers.get("x-image-source")).to.equal("rendered");
      const buf = Buffer.from(await res.arrayBuffer());
      expect([...buf.subarray(0, 3)]).to.deep.equal([0xff, 0xd8, 0xff]);
      const meta = await sharp(buf).metadata();
      expect(meta).to.include({ format: "jpeg", width: 640, height: 360 });
      api.checked.add("get /cameras/{camera_id}/latest-image 200");
      expect((await api.get("/v1/cameras/nope/latest-image")).status).to.equal(404);
    });

    it("gives statistics by hour and day, and refuses bad periods", async () => {
      const from = now - 4 * HOUR;
      const r = await api.get(
        `/v1/cameras/${q1[0].id}/statistics?start_date=${iso(from)}&end_date=${iso(now)}`,
      );
      const s = r.body as { interval: string; data: { vehicle_count: number; avg_speed: number }[] };
      expect(s.interval).to.equal("hour");
      expect(s.data.reduce((a, b) => a + b.vehicle_count, 0)).to.equal(1200);
      expect(s.data.length).to.be.within(4, 5);
      const day = (
        await api.get(
          `/v1/cameras/${q1[0].id}/statistics?start_date=${iso(from)}&end_date=${iso(now)}&interval=day`,
        )
      ).body as typeof s;
      expect(day.data.reduce((a, b) => a + b.vehicle_count, 0)).to.equal(1200);
      const missing = await api.get(`/v1/cameras/${q1[0].id}/statistics?end_date=${iso(now)}`);
      expect(missing.status).to.equal(400);
      expect((missing.body as Err).error).to.deep.include({ code: "INVALID_REQUEST" });
      const malformed = await api.get(
        `/v1/cameras/${q1[0].id}/statistics?start_date=yesterday&end_date=${iso(now)}`,
      );
      expect((malformed.body as Err).error.code).to.equal("INVALID_PARAMETER");
      expect((malformed.body as Err).error.details).to.include({
        parameter: "start_date",
        value: "yesterday",
      });
      const reversed = await api.get(
        `/v1/cameras/${q1[0].id}/statistics?start_date=${iso(now)}&end_date=${iso(from)}`,
      );
      expect((reversed.body as Err).error.details).to.include({ parameter: "end_date" });
      const interval = await api.get(
        `/v1/cameras/${q1[0].id}/statistics?start_date=${iso(from)}&end_date=${iso(now)}&interval=minute`,
      );
      expect((interval.body as Err).error.details).to.include({ parameter: "interval" });
    });
  });

  describe("accidents (§4.3)", () => {
    let receiver: Server;
    let notified: () => void;
    const delivered = new Promise<void>((resolve) => (notified = resolve));
    before(async () => {
      // a subscriber to critical accidents: their timeline shows when the alert went out
      receiver = createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          res.end();
          notified();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
      const port = (receiver.address() as AddressInfo).port;
      const sub = await http(
        app.url,
        "POST",
        "/ngsi-ld/v1/subscriptions",
        {
          id: "urn:ngsi-ld:Subscription:t19-critical",
          type: "Subscription",
          entities: [{ type: "TrafficAccident" }],
          q: 'severity=="critical"',
          notification: { endpoint: { uri: `http://127.0.0.1:${port}/alerts`, accept: "application/json" } },
          "@context": TRAFFIC_ENTITY_CONTEXT,
        },
        { "Content-Type": "application/ld+json" },
      );
      expect(sub.status, sub.text).to.equal(201);
      const c = q1[0].location;
      for (const [id, t, sev, at] of [
        [acc.a1, now - HOUR, "severe", c],
        [acc.a2, now - 2 * HOUR, "minor", q3.location],
        [acc.a3, now - 30 * MIN, "critical", c],
      ] as const) {
        const r = await http(
          app.url,
          "POST",
          "/ngsi-ld/v1/entities",
          accidentDoc(id, at.lon, at.lat, t, sev, q1[0].id),
          {
            "Content-Type": "application/ld+json",
          },
        );
        expect(r.status).to.equal(201);
      }
    });

    it("shows an accident created through NGSI-LD at once, in the list and in detail", async () => {
      const r = (await api.get("/v1/accidents")).body as Page<"accidents", { id: string; severity: string }>;
      expect(r).to.include({ total: 3, limit: 50, offset: 0 });
      expect(r.accidents.map((a) => a.id)).to.deep.equal([acc.a3, acc.a1, acc.a2]); // newest first
      const d = (await api.get(`/v1/accidents/${acc.a1}`)).body as {
        id: string;
        timeline: { event: string }[];
        severity: string;
      };
      expect(d).to.include({ id: acc.a1, severity: "severe" });
      expect(d.timeline.map((e) => e.event)).to.deep.equal(["detected"]);
    });

    after(() => new Promise<void>((r) => receiver.close(() => r())));

    it("adds alert_sent to the timeline once a notification about the accident was delivered", async () => {
      await delivered;
      let events: string[] = [];
      for (let i = 0; i < 50 && !events.includes("alert_sent"); i++) {
        await new Promise((r) => setTimeout(r, 20));
        events = (
          (await api.get(`/v1/accidents/${acc.a3}`)).body as { timeline: { event: string }[] }
        ).timeline.map((e) => e.event);
      }
      expect(events).to.deep.equal(["detected", "alert_sent"]);
    });

    it("filters by severity, district and period, and pages", async () => {
      const sev = (await api.get("/v1/accidents?severity=severe")).body as Page<
        "accidents",
        { id: string; severity: string }
      >;
      expect(sev.total).to.equal(1);
      expect(sev.accidents.every((a) => a.severity === "severe")).to.equal(true);
      const d3 = (await api.get("/v1/accidents?district=Qu%E1%BA%ADn%203")).body as Page<
        "accidents",
        { id: string }
      >;
      expect(d3.accidents.map((a) => a.id)).to.deep.equal([acc.a2]);
      const recent = (await api.get(`/v1/accidents?start_date=${iso(now - 90 * MIN)}`)).body as Page<
        "accidents",
        { id: string }
      >;
      expect(recent.accidents.map((a) => a.id)).to.deep.equal([acc.a3, acc.a1]);
      const paged = (await api.get("/v1/accidents?limit=1&offset=1")).body as Page<
        "accidents",
        { id: string }
      >;
      expect(paged).to.include({ total: 3, limit: 1, offset: 1 });
      expect(paged.accidents.map((a) => a.id)).to.deep.equal([acc.a1]);
      const bad = await api.get("/v1/accidents?severity=catastrophic");
      expect((bad.body as Err).error.details).to.include({ parameter: "severity" });
      const rev = await api.get(`/v1/accidents?start_date=${iso(now)}&end_date=${iso(now - HOUR)}`);
      expect((rev.body as Err).error).to.deep.include({ code: "INVALID_PARAMETER" });
      expect((await api.get("/v1/accidents/none")).status).to.equal(404);
    });

    it("lets operators change the status, with a timeline event per change", async () => {
      const inv = await api.call("PATCH", `/v1/accidents/${acc.a1}`, { status: "investigating" });
      expect((inv.body as { status: string }).status).to.equal("investigating");
      const res = await api.call("PATCH", `/v1/accidents/${acc.a1}`, { status: "resolved" });
      const d = res.body as { status: string; timeline: { event: string }[] };
      expect(d.status).to.equal("resolved");
      expect(d.timeline.map((e) => e.event)).to.deep.equal(["detected", "investigating", "resolved"]);
      const bad = await api.call("PATCH", `/v1/accidents/${acc.a1}`, { status: "gone" });
      expect(bad.status).to.equal(400);
      expect((bad.body as Err).error.details).to.include({ parameter: "status" });
      const none = await api.call("PATCH", `/v1/accidents/${acc.a1}`, {});
      expect((none.body as Err).error.code).to.equal("INVALID_REQUEST");
      const resolved = (await api.get("/v1/accidents?status=resolved")).body as Page<
        "accidents",
        { id: string }
      >;
      expect(resolved.accidents.map((a) => a.id)).to.deep.equal([acc.a1]);
    });
  });

  describe("traffic (§4.4)", () => {
    type Zone = {
      id: string;
      congestion_level: string;
      avg_speed: number;
      vehicle_count: number;
      incident_count: number;
      cameras_reporting: number;
    };
    it("gives the realtime state of every zone, or of one", async () => {
      const all = (await api.get("/v1/traffic/realtime")).body as { zones: Zone[] };
      expect(all.zones).to.have.length(22);
      const z = ((await api.get("/v1/traffic/realtime?district=District%201")).body as { zones: Zone[] })
        .zones;
      expect(z).to.have.length(1);
      // three cameras report 8 km/h against 40 km/h free flow; one active accident (a3) lies in Quận 1
      expect(z[0]).to.include({
        id: "quan-1",
        cameras_reporting: 3,
        avg_speed: 8,
        vehicle_count: 300,
        congestion_level: "severe",
        incident_count: 1,
      });
      const byId = ((await api.get("/v1/traffic/realtime?zone_id=quan-3")).body as { zones: Zone[] }).zones;
      expect(byId[0]).to.include({ id: "quan-3", congestion_level: "free", avg_speed: 30 });
      expect((await api.get("/v1/traffic/realtime?zone_id=atlantis")).status).to.equal(400);
    });

    it("draws congestion zones around the jammed cameras", async () => {
      const r = (await api.get("/v1/traffic/congestion-zones")).body as {
        zones: { level: string; polygon: [number, number][]; cameras: string[]; zone_id: string }[];
      };
      const ids = r.zones.flatMap((z) => z.cameras).sort();
      expect(ids).to.deep.equal(q1.map((c) => c.id).sort());
      for (const z of r.zones) {
        expect(z.level).to.equal("severe");
        expect(z.zone_id).to.equal("quan-1");
        for (const [lat, lon] of z.polygon) {
          expect(lat).to.be.within(10.6, 10.9);
          expect(lon).to.be.within(106.5, 106.9);
        }
      }
    });

    it("forecasts a zone hour by hour with a confidence and an interval", async () => {
      const r = (await api.get("/v1/traffic/forecast?zone_id=quan-1")).body as {
        zone_id: string;
        forecast: { predicted_speed: number; confidence: number; interval: { low: number; high: number } }[];
      };
      expect(r.zone_id).to.equal("quan-1");
      expect(r.forecast).to.have.length(24);
      for (const p of r.forecast) {
        expect(p.interval.low).to.be.at.most(p.predicted_speed);
        expect(p.interval.high).to.be.at.least(p.predicted_speed);
        expect(p.confidence).to.be.within(0, 1);
      }
      const long = (await api.get("/v1/traffic/forecast?zone_id=Qu%E1%BA%ADn%201&hours=72")).body as {
        forecast: unknown[];
      };
      expect(long.forecast).to.have.length(72);
      expect(
        ((await api.get("/v1/traffic/forecast?zone_id=quan-1&hours=73")).body as Err).error.details,
      ).to.include({
        parameter: "hours",
      });
      expect(((await api.get("/v1/traffic/forecast")).body as Err).error.code).to.equal("INVALID_REQUEST");
    });
  });

  describe("weather and air quality (§4.5)", () => {
    it("gives the observation nearest to the location, and a forecast", async () => {
      const c = (await api.get("/v1/weather/current")).body as { station: string; conditions: string };
      expect(c.station).to.equal("Station quan-1");
      const near3 = (await api.get("/v1/weather/current?location=10.784,106.68")).body as {
        station: string;
        temperature: number;
      };
      expect(near3).to.include({ station: "Station quan-3", temperature: 29 });
      const f = (await api.get("/v1/weather/forecast")).body as {
        forecast: { precipitation_probability: number }[];
      };
      expect(f.forecast).to.have.length(24);
      expect((await api.get("/v1/weather/forecast?hours=168")).status).to.equal(200);
      expect(((await api.get("/v1/weather/forecast?hours=169")).body as Err).error.details).to.include({
        parameter: "hours",
      });
      expect(((await api.get("/v1/weather/current?location=95,10")).body as Err).error.details).to.include({
        parameter: "location",
      });
    });

    it("computes the US EPA AQI from the concentrations, now and by hour", async () => {
      const r = (await api.get("/v1/air-quality/current")).body as {
        stations: { id: string; aqi: number; category: string; pollutants: { pm25: number } }[];
      };
      const s = r.stations.find((x) => x.id === "quan-1")!;
      expect(s).to.include({ aqi: 101, category: "unhealthy_for_sensitive_groups" });
      expect(s.pollutants.pm25).to.equal(35.5);
      const h = (
        await api.get(
          `/v1/air-quality/history?station_id=quan-1&start_date=${iso(now - 4 * HOUR)}&end_date=${iso(now)}`,
        )
      ).body as { data: { pm25: number; aqi: number }[] };
      expect(h.data.length).to.be.within(3, 5);
      for (const x of h.data) expect(x.aqi).to.be.within(40, 101);
      const day = (
        await api.get(
          `/v1/air-quality/history?station_id=quan-1&start_date=${iso(now - 4 * HOUR)}&end_date=${iso(now)}&interval=day`,
        )
      ).body as { data: unknown[] };
      expect(day.data.length).to.be.within(1, 2);
      expect(
        (
          await api.get(
            `/v1/air-quality/history?station_id=nope&start_date=${iso(now - HOUR)}&end_date=${iso(now)}`,
          )
        ).status,
      ).to.equal(404);
      expect(((await api.get("/v1/air-quality/history?station_id=quan-1")).body as Err).error.code).to.equal(
        "INVALID_REQUEST",
      );
    });
  });

  describe("analytics (§4.6)", () => {
    const period = () => `start_date=${iso(now - 4 * HOUR)}&end_date=${iso(now + MIN)}`;
    it("sums the period's flow and accidents", async () => {
      const r = (await api.get(`/v1/analytics/summary?${period()}`)).body as {
        metrics: Record<string, unknown>;
      };
      expect(r.metrics).to.include({ total_vehicles: 4 * 1200, total_accidents: 3 });
      expect((r.metrics.peak_hours as string[]).length).to.be.greaterThan(0);
      const only = (await api.get(`/v1/analytics/summary?${period()}&metrics=total_vehicles,avg_speed`))
        .body as { metrics: object };
      expect(Object.keys(only.metrics).sort()).to.deep.equal(["avg_speed", "total_vehicles"]);
      expect(
        ((await api.get(`/v1/analytics/summary?${period()}&metrics=happiness`)).body as Err).error.details,
      ).to.include({
        parameter: "metrics",
      });
    });

    it("finds patterns of each type and correlations with p-values", async () => {
      for (const type of ["temporal", "spatial", "correlation"]) {
        const r = (await api.get(`/v1/analytics/patterns?type=${type}&${period()}`)).body as {
          pattern_type: string;
        };
        expect(r.pattern_type).to.equal(type);
      }
      const spatial = (await api.get(`/v1/analytics/patterns?type=spatial&${period()}`)).body as {
        patterns: { pattern: string }[];
      };
      expect(spatial.patterns).to.have.length(0); // two accidents at one place are not yet a hotspot (3 needed)
      expect(((await api.get(`/v1/analytics/patterns?${period()}`)).body as Err).error.code).to.equal(
        "INVALID_REQUEST",
      );
      const c = (await api.get("/v1/analytics/correlations")).body as {
        correlations: { factor1: string; p_value: number; n: number }[];
      };
      expect(c.correlations).to.have.length(15);
      for (const x of c.correlations) expect(x.p_value).to.be.within(0, 1);
    });
  });

  describe("OpenAPI document", () => {
    it("validated every response above against /v1/openapi.json, for every operation", () => {
      const ops = new Set([...api.checked].map((k) => k.split(" ").slice(0, 2).join(" ")));
      expect([...ops].sort()).to.include.members([
        "get /accidents",
        "get /accidents/{accident_id}",
        "patch /accidents/{accident_id}",
        "get /air-quality/current",
        "get /air-quality/history",
        "get /analytics/correlations",
        "get /analytics/patterns",
        "get /analytics/summary",
        "get /cameras",
        "get /cameras/{camera_id}",
        "get /cameras/{camera_id}/statistics",
        "get /traffic/congestion-zones",
        "get /traffic/forecast",
        "get /traffic/realtime",
        "get /weather/current",
        "get /weather/forecast",
      ]);
    });
  });
});
