import { expect } from "chai";
import { matchZone, nameCore } from "../../../../../src/domain/traffic/zones/district-names";
import type { Zone } from "../../../../../src/domain/traffic/models";

const zone = (id: string, name: string, alternateNames: string[] = []): Zone => ({
  entityId: `urn:ngsi-ld:District:${id}`,
  id,
  name,
  alternateNames,
  polygon: [],
  bbox: [0, 0, 0, 0],
  centroid: { lat: 0, lon: 0 },
  cameraIds: [],
});

const zones = [
  zone("quan-1", "Quận 1"),
  zone("quan-10", "Quận 10"),
  zone("quan-go-vap", "Quận Gò Vấp"),
  zone("thanh-pho-thu-duc", "Thành phố Thủ Đức", ["Quận 2", "Quận 9", "Quận Thủ Đức"]),
  zone("huyen-cu-chi", "Huyện Củ Chi"),
];

describe("domain/traffic/district-names: districts by id or name", () => {
  it("matches ids, Vietnamese and English names, any case, with or without diacritics", () => {
    const cases: [string, string][] = [
      ["quan-1", "quan-1"],
      ["Quận 1", "quan-1"],
      ["quan 1", "quan-1"],
      ["QUẬN 1", "quan-1"],
      ["District 1", "quan-1"],
      ["Q.1", "quan-1"],
      ["District 10", "quan-10"],
      ["Gò Vấp", "quan-go-vap"],
      ["go vap district", "quan-go-vap"],
      ["Thủ Đức", "thanh-pho-thu-duc"],
      ["Thu Duc City", "thanh-pho-thu-duc"],
      ["Quận 2", "thanh-pho-thu-duc"],
      ["Cu Chi", "huyen-cu-chi"],
      ["urn:ngsi-ld:District:quan-1", "quan-1"],
    ];
    for (const [name, id] of cases) expect(matchZone(name, zones)?.id, name).to.equal(id);
  });

  it("knows nothing of unknown or empty names", () => {
    for (const name of ["", "  ", "District", "Quận 13", "Hanoi"])
      expect(matchZone(name, zones), name).to.equal(undefined);
    expect(nameCore("Thành phố Thủ Đức")).to.equal("thu duc");
  });
});
