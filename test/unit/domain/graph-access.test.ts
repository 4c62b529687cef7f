import { expect } from "chai";
import { pointIn, pointOf } from "../../../src/domain/graph-access";
import type { Entity } from "../../../src/ngsi-ld/model/entity";

describe("domain/graph-access: the point of an entity", () => {
  const at = (value: unknown): Entity => ({
    id: "urn:ngsi-ld:X:1",
    type: "X",
    location: { type: "GeoProperty", value },
  });

  it("reads the Point of `location` as {lat, lon}", () => {
    expect(pointOf(at({ type: "Point", coordinates: [106.7, 10.77] }))).to.deep.equal({
      lat: 10.77,
      lon: 106.7,
    });
    expect(pointIn({ type: "Point", coordinates: [1, 2] })).to.deep.equal({ lat: 2, lon: 1 });
  });

  it("gives nothing for another geometry, coordinates that are not numbers, or no location", () => {
    expect(
      pointOf(
        at({
          type: "LineString",
          coordinates: [
            [1, 2],
            [3, 4],
          ],
        }),
      ),
    ).to.equal(undefined);
    expect(pointOf(at({ type: "Point", coordinates: ["1", 2] }))).to.equal(undefined);
    expect(pointOf({ id: "urn:ngsi-ld:X:2", type: "X" })).to.equal(undefined);
    expect(pointIn(null)).to.equal(undefined);
  });
});
