import { expect } from "chai";
import {
  buildSeedEntities,
  cameraStatus,
  loadCameraRecords,
  loadDistricts,
  resolveDistrictName,
  type NgsiLdEntityDoc,
} from "../../../src/demo/seed";

type Attr = { type: string; value?: unknown; object?: unknown };
const attr = (e: NgsiLdEntityDoc, name: string) => e[name] as Attr | undefined;

describe("domain: seed", () => {
  let seed: { districts: NgsiLdEntityDoc[]; cameras: NgsiLdEntityDoc[] };
  let ms = 0;

  before(() => {
    const t = process.hrtime.bigint();
    seed = buildSeedEntities();
    ms = Number(process.hrtime.bigint() - t) / 1e6;
  });

  it("reads 701 cameras and 22 districts from dataset/", () => {
    expect(loadCameraRecords()).to.have.length(701);
    const d = loadDistricts();
    expect(d).to.have.length(22);
    expect(d.map((x) => x.name)).to.include.members([
      "Quận 1",
      "Quận Gò Vấp",
      "Thành phố Thủ Đức",
      "Huyện Cần Giờ",
    ]);
  });

  it("builds 701 cameras and 22 districts with unique ids, quickly", () => {
    expect(seed.cameras).to.have.length(701);
    expect(seed.districts).to.have.length(22);
    const ids = [...seed.cameras, ...seed.districts].map((e) => e.id);
    expect(new Set(ids).size).to.equal(ids.length);
    expect(ms, `buildSeedEntities took ${ms.toFixed(0)} ms`).to.be.below(3000);
  });

  it("maps a known camera: name, coordinates, district, status, capabilities, URLs", () => {
    const cam = seed.cameras.find((c) => c.id === "urn:ngsi-ld:TrafficCamera:0")!;
    expect(cam.type).to.equal("TrafficCamera");
    expect(attr(cam, "name")?.value).to.equal("Trần Quang Khải - Trần Khắc Chân");
    expect(attr(cam, "location")).to.deep.equal({
      type: "GeoProperty",
      value: { type: "Point", coordinates: [106.691054105759, 10.7918902432446] },
    });
    expect(attr(cam, "refDistrict")).to.deep.equal({
      type: "Relationship",
      object: "urn:ngsi-ld:District:quan-1",
    });
    expect(attr(cam, "status")?.value).to.equal("active");
    expect(attr(cam, "capabilities")?.value).to.deep.equal(["accident_detection", "vehicle_count"]);
    expect(attr(cam, "streamURL")?.value).to.match(
      /^https:\/\/giaothong\.hochiminhcity\.gov\.vn\/.*id=662b86c41afb9c00172dd31c$/,
    );
    expect(attr(cam, "lastUpdate")?.value).to.deep.equal({
      "@type": "DateTime",
      "@value": "2025-12-07T14:57:41.939Z",
    });
    expect(cam["@context"]).to.deep.equal([
      "https://w3id.org/citygraph/contexts/traffic.jsonld",
      "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld",
    ]);
  });

  it("puts at least 680 cameras in a district, and districts list exactly those cameras", () => {
    const withDistrict = seed.cameras.filter((c) => attr(c, "refDistrict"));
    expect(withDistrict.length).to.be.at.least(680);
    const listed = seed.districts.flatMap(
      (d) => (attr(d, "refCameras")?.object as string[] | undefined) ?? [],
    );
    expect(listed.length).to.equal(withDistrict.length);
    expect(new Set(listed)).to.deep.equal(new Set(withDistrict.map((c) => c.id)));
    const q1 = seed.districts.find((d) => d.id === "urn:ngsi-ld:District:quan-1")!;
    expect(attr(q1, "refCameras")?.object).to.include("urn:ngsi-ld:TrafficCamera:0");
  });

  it("gives districts a MultiPolygon location and credits OpenStreetMap", () => {
    for (const d of seed.districts) {
      const loc = attr(d, "location") as { type: string; value: { type: string } };
      expect(loc.type).to.equal("GeoProperty");
      expect(loc.value.type).to.equal("MultiPolygon");
      expect(String(attr(d, "source")?.value)).to.contain("OpenStreetMap");
    }
  });

  it("resolves district names, old Quận 2 / Quận 9 to Thủ Đức", () => {
    const d = loadDistricts();
    expect(resolveDistrictName("Quận 2", d)?.slug).to.equal("thanh-pho-thu-duc");
    expect(resolveDistrictName("Quận 9", d)?.slug).to.equal("thanh-pho-thu-duc");
    expect(resolveDistrictName("District 1", d)?.slug).to.equal("quan-1");
    expect(resolveDistrictName("Go Vap", d)?.slug).to.equal("quan-go-vap");
    expect(resolveDistrictName("Quận 13", d)).to.equal(undefined);
  });

  it("maps the data status: success -> active, error -> error", () => {
    expect(cameraStatus("success")).to.equal("active");
    expect(cameraStatus("error")).to.equal("error");
    expect(cameraStatus("whatever")).to.equal("inactive");
  });
});
