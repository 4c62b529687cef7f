import { expect } from "chai";
import { createFeed, loadFeedCameras, type FeedCamera } from "../../../../src/demo/feed";
import type { NgsiLdEntityDoc } from "../../../../src/demo/seed";

const MIN = 60_000;
/** 2025-12-08 (a Monday) 00:00 in Ho Chi Minh City (UTC+7). */
const LOCAL_MIDNIGHT = Date.parse("2025-12-07T17:00:00Z");
const at = (localHour: number) => new Date(LOCAL_MIDNIGHT + localHour * 3_600_000);

type Attr = { type: string; value?: unknown; observedAt?: string };
const num = (e: NgsiLdEntityDoc, k: string) => (e[k] as Attr).value as number;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Flow documents of a one-minute window ending at local hour h. */
function flowsAt(cameras: FeedCamera[], h: number, seed = 1): NgsiLdEntityDoc[] {
  const now = at(h);
  const feed = createFeed({ seed, cameras, startTime: new Date(now.getTime() - MIN) });
  return feed.tick(now).filter((d) => d.type === "TrafficFlowObserved");
}

describe("domain: feed", function () {
  this.timeout(60_000);
  let cameras: FeedCamera[];
  before(() => {
    cameras = loadFeedCameras();
  });

  it("is deterministic: same seed and times give identical documents; another seed differs", () => {
    const run = (seed: number) => {
      const feed = createFeed({ seed, cameras, startTime: at(6), accidentsPerHour: 30 });
      return [1, 2, 5, 30, 90].map((m) => feed.tick(new Date(at(6).getTime() + m * MIN)));
    };
    const a = run(42);
    expect(JSON.stringify(run(42))).to.equal(JSON.stringify(a));
    expect(JSON.stringify(run(43))).to.not.equal(JSON.stringify(a));
  });

  it("emits one TrafficFlowObserved per camera plus weather and air-quality stations", () => {
    const feed = createFeed({ seed: 1, cameras, startTime: at(8) });
    const docs = feed.tick(new Date(at(8).getTime() + MIN));
    const flows = docs.filter((d) => d.type === "TrafficFlowObserved");
    expect(flows).to.have.length(cameras.length);
    expect(flows[0].id).to.equal(`urn:ngsi-ld:TrafficFlowObserved:${cameras[0].id}`);
    const weather = docs.filter((d) => d.type === "WeatherObserved");
    const air = docs.filter((d) => d.type === "AirQualityObserved");
    expect(weather.length).to.be.within(15, 22);
    expect(air.length).to.equal(weather.length);
    expect(weather[0].id).to.match(/^urn:ngsi-ld:WeatherObserved:[a-z0-9-]+$/);
    for (const d of [...flows, ...weather, ...air]) {
      expect((d.dateObserved as Attr).observedAt).to.equal(new Date(at(8).getTime() + MIN).toISOString());
      expect(d["@context"]).to.have.length(2);
    }
  });

  it("counts are motorbike-heavy and add up to the intensity", () => {
    const flows = flowsAt(cameras, 8);
    for (const f of flows) {
      const sum = ["motorcycleCount", "carCount", "busCount", "truckCount"].reduce(
        (a, k) => a + num(f, k),
        0,
      );
      expect(num(f, "intensity")).to.equal(sum);
      expect(num(f, "occupancy")).to.be.within(0, 1);
    }
    const motorbikes = flows.reduce((a, f) => a + num(f, "motorcycleCount"), 0);
    const total = flows.reduce((a, f) => a + num(f, "intensity"), 0);
    expect(motorbikes / total).to.be.within(0.75, 0.92);
  });

  it("has rush hours around 7-9 and 17-19 local time: more vehicles, lower speed", () => {
    const intensity = (h: number) => mean(flowsAt(cameras, h).map((f) => num(f, "intensity")));
    const speed = (h: number) => mean(flowsAt(cameras, h).map((f) => num(f, "averageVehicleSpeed")));
    const [night, morning, noon, evening] = [3, 8, 12.5, 18].map(intensity);
    expect(morning).to.be.above(1.5 * noon);
    expect(evening).to.be.above(1.5 * noon);
    expect(noon).to.be.above(3 * night);
    expect(speed(8)).to.be.below(0.8 * speed(3));
    expect(speed(18)).to.be.below(0.8 * speed(12.5));
  });

  it("starts weather and air quality from the real readings and drifts plausibly", () => {
    const feed = createFeed({ seed: 5, cameras, startTime: new Date(0) });
    const q1 = feed.stations.find((s) => s.slug === "quan-1")!;
    const t0 = new Date(q1.readingTime);
    const docs = createFeed({ seed: 5, cameras, startTime: new Date(t0.getTime() - MIN) }).tick(t0);
    const w = docs.find((d) => d.id === "urn:ngsi-ld:WeatherObserved:quan-1")!;
    const a = docs.find((d) => d.id === "urn:ngsi-ld:AirQualityObserved:quan-1")!;
    expect(num(w, "temperature")).to.be.closeTo(q1.weather!.temperature, 0.06);
    expect(num(a, "pm25")).to.be.closeTo(q1.airQuality!.pm25, 0.01);
    // Over two days every station stays within HCMC dry-season ranges.
    const f = createFeed({ seed: 5, cameras, startTime: t0 });
    for (let h = 1; h <= 48; h++) {
      for (const d of f.tick(new Date(t0.getTime() + h * 3_600_000))) {
        if (d.type === "WeatherObserved") {
          expect(num(d, "temperature")).to.be.within(20, 36);
          expect(num(d, "relativeHumidity")).to.be.within(0.35, 1);
        }
        if (d.type === "AirQualityObserved") expect(num(d, "airQualityIndex")).to.be.within(0, 300);
      }
    }
  });

  it("now and then reports a camera-detected accident, later resolved, never twice", () => {
    const feed = createFeed({ seed: 9, cameras, startTime: at(0) });
    const seen = new Map<string, string[]>();
    for (let m = 5; m <= 24 * 60; m += 5) {
      for (const d of feed.tick(new Date(at(0).getTime() + m * MIN))) {
        if (d.type !== "TrafficAccident") continue;
        seen.set(d.id, [...(seen.get(d.id) ?? []), (d.status as Attr).value as string]);
        expect(d.id).to.match(/^urn:ngsi-ld:TrafficAccident:[0-9a-f]{12}$/);
        expect(["minor", "moderate", "severe", "critical"]).to.include((d.severity as Attr).value);
        expect((d.timestamp as Attr).value).to.have.property("@type", "DateTime");
        expect(d.refCamera).to.have.property("type", "Relationship");
      }
    }
    expect(seen.size).to.be.within(20, 90); // ~2 per hour on average
    for (const states of seen.values()) expect(["active", "active,resolved"]).to.include(states.join(","));
  });
});
