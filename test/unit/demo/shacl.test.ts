import { expect } from "chai";
import SHACLValidator from "rdf-validate-shacl";
import type { Store } from "n3";
import { buildSeedEntities } from "../../../src/demo/seed";
import { createFeed, loadFeedCameras } from "../../../src/demo/feed";
import type { NgsiLdEntityDoc } from "../../../src/demo/seed";
import { entitiesToStore, loadShapes } from "./rdf-test-helpers";

type Report = Awaited<ReturnType<SHACLValidator["validate"]>>;

function describeReport(r: Report): string {
  return r.results
    .slice(0, 10)
    .map((x) => `${x.focusNode?.value} ${x.path?.value}: ${x.message.map((m) => m.value).join("; ")}`)
    .join("\n");
}

async function validate(data: Store): Promise<Report> {
  return new SHACLValidator(loadShapes()).validate(data);
}

describe("domain: SHACL shapes", function () {
  this.timeout(120_000);
  let seed: { districts: NgsiLdEntityDoc[]; cameras: NgsiLdEntityDoc[] };
  let feedDocs: NgsiLdEntityDoc[];

  before(() => {
    seed = buildSeedEntities();
    const start = new Date("2025-12-08T00:00:00Z");
    const feed = createFeed({ seed: 7, cameras: loadFeedCameras(), startTime: start, accidentsPerHour: 200 });
    // The store keeps the latest version of each entity: later ticks replace earlier documents.
    const latest = new Map<string, NgsiLdEntityDoc>();
    for (const m of [1, 2, 3])
      for (const d of feed.tick(new Date(start.getTime() + m * 60_000))) latest.set(d.id, d);
    feedDocs = [...latest.values()];
  });

  it("the seed (22 districts, 701 cameras) and three feed ticks conform", async () => {
    const kinds = new Set(feedDocs.map((d) => d.type));
    expect([...kinds].sort()).to.deep.equal([
      "AirQualityObserved",
      "TrafficAccident",
      "TrafficFlowObserved",
      "WeatherObserved",
    ]);
    const data = await entitiesToStore([...seed.districts, ...seed.cameras, ...feedDocs]);
    const report = await validate(data);
    expect(report.conforms, describeReport(report)).to.equal(true);
  });

  it("a camera with status 'broken' does not conform", async () => {
    const cam = structuredClone(seed.cameras[0]);
    cam.status = { type: "Property", value: "broken" };
    const report = await validate(await entitiesToStore([cam]));
    expect(report.conforms).to.equal(false);
    expect(report.results.map((r) => r.path?.value)).to.include("https://w3id.org/citygraph/traffic#status");
  });

  it("a camera outside the city and an accident of unknown severity do not conform", async () => {
    const cam = structuredClone(seed.cameras[1]);
    cam.location = { type: "GeoProperty", value: { type: "Point", coordinates: [2.35, 48.85] } };
    const acc = structuredClone(feedDocs.find((d) => d.type === "TrafficAccident")!);
    acc.severity = { type: "Property", value: "catastrophic" };
    const report = await validate(await entitiesToStore([cam, acc]));
    const paths = report.results.map((r) => r.path?.value);
    expect(paths).to.include("http://www.w3.org/2003/01/geo/wgs84_pos#lat");
    expect(paths).to.include("https://w3id.org/citygraph/traffic#severity");
  });

  it("a citizen report as docs/reports-and-alerts.md describes it conforms", async () => {
    const report = await validate(
      await entitiesToStore([
        {
          id: "urn:ngsi-ld:CitizenReport:r1",
          type: "CitizenReport",
          reportType: { type: "Property", value: "accident" },
          description: { type: "Property", value: "Two motorbikes collided at the roundabout" },
          location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.78] } },
          severity: { type: "Property", value: "high" },
          status: { type: "Property", value: "pending" },
          reportedAt: { type: "Property", value: { "@type": "DateTime", "@value": "2025-12-08T01:02:03Z" } },
          refNearbyCamera: { type: "Relationship", object: "urn:ngsi-ld:TrafficCamera:0" },
          "@context": seed.cameras[0]["@context"],
        },
      ]),
    );
    expect(report.conforms, describeReport(report)).to.equal(true);
  });
});
