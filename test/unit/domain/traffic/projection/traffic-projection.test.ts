import { expect } from "chai";
import type { Entity } from "../../../../../src/ngsi-ld/model/entity";
import type { CompiledContext } from "../../../../../src/rdf/contexts/compiled-context";
import { TrafficProjection } from "../../../../../src/domain/traffic/projection/traffic-projection";

const NS = "https://w3id.org/citygraph/traffic#";
/** A context whose terms are the bare names (the traffic context, for these tests). */
const traffic = {
  key: "traffic",
  expandTerm: (t: string) => NS + t,
  compactIri: (i: string) => i.replace(NS, ""),
} as CompiledContext;
/** A writer's context that knows no traffic term: names arrive as full IRIs. */
const core = { key: "core", expandTerm: (t: string) => t, compactIri: (i: string) => i } as CompiledContext;

const square = (x: number, y: number) => [
  [
    [
      [x, y],
      [x + 1, y],
      [x + 1, y + 1],
      [x, y + 1],
      [x, y],
    ],
  ],
];
const zone = (id: string, x: number): Entity => ({
  id: `urn:ngsi-ld:District:${id}`,
  type: "District",
  name: { type: "Property", value: id.toUpperCase() },
  location: { type: "GeoProperty", value: { type: "MultiPolygon", coordinates: square(x, 0) } },
});
const camera = (id: string, lon: number, status = "active"): Entity => ({
  id: `urn:ngsi-ld:TrafficCamera:${id}`,
  type: "TrafficCamera",
  name: { type: "Property", value: `Cam ${id}` },
  status: { type: "Property", value: status },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [lon, 0.5] } },
});

describe("domain/traffic/traffic-projection: read models from entities and changes", () => {
  it("places cameras in the zone whose polygon contains them, in any order of arrival", () => {
    const p = new TrafficProjection(traffic);
    p.put(camera("1", 0.5), traffic);
    p.put(zone("a", 0), traffic);
    p.put(zone("b", 1), traffic);
    p.put(camera("2", 1.5), traffic);
    p.put(camera("10", 5), traffic); // outside every zone
    expect(p.zones.get("a")!.cameraIds).to.deep.equal(["1"]);
    expect(p.zones.get("b")!.cameraIds).to.deep.equal(["2"]);
    expect(p.cameras.get("10")!.zoneId).to.equal(undefined);
    expect(p.cameraList().map((c) => c.id)).to.deep.equal(["1", "2", "10"]);
    // a camera moved to the other zone leaves the first
    p.put(camera("1", 1.2), traffic);
    expect(p.zones.get("a")!.cameraIds).to.deep.equal([]);
    expect(p.zones.get("b")!.cameraIds.sort()).to.deep.equal(["1", "2"]);
    p.remove("urn:ngsi-ld:TrafficCamera:2");
    expect(p.cameraList().map((c) => c.id)).to.deep.equal(["1", "10"]);
  });

  it("reads entities written with another context by their expanded names", () => {
    const p = new TrafficProjection(traffic);
    const e: Entity = {
      id: "urn:ngsi-ld:TrafficAccident:x",
      type: NS + "TrafficAccident",
      [NS + "severity"]: { type: "Property", value: "severe" },
      [NS + "status"]: { type: "Property", value: "investigating" },
      [NS + "timestamp"]: {
        type: "Property",
        value: { "@type": "DateTime", "@value": "2025-12-07T08:00:00Z" },
      },
      [NS + "location"]: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.77] } },
    };
    p.put(e, core);
    const a = p.accidents.get("x")!;
    expect(a).to.include({
      severity: "severe",
      status: "investigating",
      timestamp: Date.parse("2025-12-07T08:00:00Z"),
    });
    expect(a.location).to.deep.equal({ lat: 10.77, lon: 106.7 });
  });

  it("keeps the latest flow per camera and tells the listeners", () => {
    const p = new TrafficProjection(traffic);
    const seen: number[] = [];
    p.onFlow((f) => seen.push(f.intensity));
    const flow = (t: string, n: number): Entity => ({
      id: "urn:ngsi-ld:TrafficFlowObserved:1",
      type: "TrafficFlowObserved",
      refCamera: { type: "Relationship", object: "urn:ngsi-ld:TrafficCamera:1" },
      location: { type: "GeoProperty", value: { type: "Point", coordinates: [0.5, 0.5] } },
      dateObservedTo: { type: "Property", value: { "@type": "DateTime", "@value": t } },
      intensity: { type: "Property", value: n },
      averageVehicleSpeed: { type: "Property", value: 30 },
    });
    p.put(flow("2025-12-07T08:15:00Z", 10), traffic);
    p.put(flow("2025-12-07T08:00:00Z", 5), traffic); // late: kept in the history, not as the latest
    expect(p.flows.get("1")!.intensity).to.equal(10);
    expect(seen).to.deep.equal([10, 5]);
    expect(p.flowEntities.get("1")).to.equal("urn:ngsi-ld:TrafficFlowObserved:1");
  });
});
