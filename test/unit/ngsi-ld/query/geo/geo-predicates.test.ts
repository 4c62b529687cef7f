import { expect } from "chai";
import {
  geometryDistance,
  matchesGeoQuery,
  type GeoQuery,
  type Geometry,
} from "../../../../../src/ngsi-ld/query/geo";

type Rel = GeoQuery["georel"];
const q = (georel: Rel, geometry: Geometry): GeoQuery => ({
  georel,
  geometry,
  geoproperty: "location",
  geopropertyIri: "https://uri.etsi.org/ngsi-ld/location",
});
const pt = (lon: number, lat: number): Geometry => ({ type: "Point", coordinates: [lon, lat] });
const box = (x0: number, y0: number, x1: number, y1: number): Geometry => ({
  type: "Polygon",
  coordinates: [
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ],
  ],
});
const line = (...c: number[][]): Geometry => ({ type: "LineString", coordinates: c });

// Around District 1, Ho Chi Minh City. One degree of arc on the turf sphere (R = 6,371,008.8 m) is
// 111,194.93 m; one degree of longitude at 10.78 N is 111,194.93 * cos(10.78°) = 109,232.5 m.
const D1 = box(106.69, 10.77, 106.71, 10.79);
const inside = pt(106.7, 10.78);
const outside = pt(106.72, 10.78);

describe("matchesGeoQuery (ETSI GS CIM 009 v1.8 §4.10)", () => {
  describe("near", () => {
    // two points on the meridian 106.7 E, 0.1° apart: 0.1 * π/180 * 6,371,008.8 = 11,119.508 m
    const a = pt(106.7, 10.7);
    const b = pt(106.7, 10.8);
    it("measures great-circle metres", () => {
      expect(geometryDistance(a, b)).to.be.closeTo(11_119.508, 0.001);
    });
    it("maxDistance and minDistance bound the distance", () => {
      expect(matchesGeoQuery(b, q({ name: "near", maxDistance: 11_120 }, a))).to.equal(true);
      expect(matchesGeoQuery(b, q({ name: "near", maxDistance: 11_119 }, a))).to.equal(false);
      expect(matchesGeoQuery(b, q({ name: "near", minDistance: 11_119 }, a))).to.equal(true);
      expect(matchesGeoQuery(b, q({ name: "near", minDistance: 11_120 }, a))).to.equal(false);
      expect(matchesGeoQuery(b, q({ name: "near", minDistance: 10_000, maxDistance: 12_000 }, a))).to.equal(
        true,
      );
      expect(matchesGeoQuery(b, q({ name: "near", minDistance: 12_000, maxDistance: 13_000 }, a))).to.equal(
        false,
      );
    });
    it("measures to the nearest part of a polygon, 0 inside", () => {
      // 0.01° east of the east edge at 10.78 N: about 1,092.3 m
      expect(geometryDistance(outside, D1)).to.be.closeTo(1_092.3, 1);
      expect(geometryDistance(inside, D1)).to.equal(0);
      expect(matchesGeoQuery(D1, q({ name: "near", maxDistance: 1_100 }, outside))).to.equal(true);
      expect(matchesGeoQuery(D1, q({ name: "near", maxDistance: 1_080 }, outside))).to.equal(false);
    });
    it("measures between lines and polygons", () => {
      const east = line([106.72, 10.7], [106.72, 10.9]);
      expect(geometryDistance(east, D1)).to.be.closeTo(1_092.3, 1.5);
      expect(geometryDistance(line([106.6, 10.78], [106.8, 10.78]), D1)).to.equal(0);
      const mp: Geometry = {
        type: "MultiPoint",
        coordinates: [
          [106.7, 10.9],
          [106.72, 10.78],
        ],
      };
      expect(geometryDistance(mp, D1)).to.be.closeTo(1_092.3, 1);
    });
  });

  it("within: the target lies inside the reference", () => {
    expect(matchesGeoQuery(inside, q({ name: "within" }, D1))).to.equal(true);
    expect(matchesGeoQuery(outside, q({ name: "within" }, D1))).to.equal(false);
    expect(matchesGeoQuery(box(106.695, 10.775, 106.705, 10.785), q({ name: "within" }, D1))).to.equal(true);
    expect(matchesGeoQuery(box(106.695, 10.775, 106.715, 10.785), q({ name: "within" }, D1))).to.equal(false);
    expect(matchesGeoQuery(line([106.7, 10.775], [106.7, 10.785]), q({ name: "within" }, D1))).to.equal(true);
    const mp: Geometry = {
      type: "MultiPoint",
      coordinates: [
        [106.7, 10.78],
        [106.705, 10.785],
      ],
    };
    expect(matchesGeoQuery(mp, q({ name: "within" }, D1))).to.equal(true);
    const mls: Geometry = {
      type: "MultiLineString",
      coordinates: [
        [
          [106.7, 10.775],
          [106.7, 10.785],
        ],
      ],
    };
    expect(matchesGeoQuery(mls, q({ name: "within" }, D1))).to.equal(true);
  });

  it("contains: the target contains the reference", () => {
    expect(matchesGeoQuery(D1, q({ name: "contains" }, inside))).to.equal(true);
    expect(matchesGeoQuery(D1, q({ name: "contains" }, outside))).to.equal(false);
    expect(matchesGeoQuery(inside, q({ name: "contains" }, D1))).to.equal(false);
    expect(matchesGeoQuery(inside, q({ name: "contains" }, inside))).to.equal(true);
    const mls: Geometry = {
      type: "MultiLineString",
      coordinates: [
        [
          [106.6, 10.78],
          [106.8, 10.78],
        ],
      ],
    };
    expect(matchesGeoQuery(mls, q({ name: "contains" }, inside))).to.equal(true);
    expect(matchesGeoQuery(mls, q({ name: "contains" }, D1))).to.equal(false);
  });

  it("intersects and disjoint are complements", () => {
    const crossing = line([106.6, 10.78], [106.8, 10.78]);
    const far = line([106.6, 10.9], [106.8, 10.9]);
    for (const [g, hit] of [
      [crossing, true],
      [far, false],
      [inside, true],
      [outside, false],
    ] as const) {
      expect(matchesGeoQuery(g, q({ name: "intersects" }, D1))).to.equal(hit);
      expect(matchesGeoQuery(g, q({ name: "disjoint" }, D1))).to.equal(!hit);
    }
  });

  it("equals: the same geometry", () => {
    expect(matchesGeoQuery(pt(106.7, 10.78), q({ name: "equals" }, inside))).to.equal(true);
    expect(matchesGeoQuery(pt(106.7, 10.781), q({ name: "equals" }, inside))).to.equal(false);
    expect(matchesGeoQuery(box(106.69, 10.77, 106.71, 10.79), q({ name: "equals" }, D1))).to.equal(true);
    const multi: Geometry = {
      type: "MultiPolygon",
      coordinates: [(D1 as { coordinates: number[][][] }).coordinates],
    };
    expect(matchesGeoQuery(multi, q({ name: "equals" }, D1))).to.equal(true);
  });

  it("overlaps: same dimension, each has points outside the other", () => {
    expect(matchesGeoQuery(box(106.7, 10.78, 106.72, 10.8), q({ name: "overlaps" }, D1))).to.equal(true);
    expect(matchesGeoQuery(box(106.695, 10.775, 106.705, 10.785), q({ name: "overlaps" }, D1))).to.equal(
      false,
    );
    expect(matchesGeoQuery(inside, q({ name: "overlaps" }, D1))).to.equal(false);
    expect(matchesGeoQuery(inside, q({ name: "overlaps" }, inside))).to.equal(false);
  });

  it("a target GeometryCollection matches through its members", () => {
    const gc = { type: "GeometryCollection", geometries: [inside, outside] };
    expect(matchesGeoQuery(gc, q({ name: "intersects" }, D1))).to.equal(true);
    expect(matchesGeoQuery(gc, q({ name: "within" }, D1))).to.equal(false);
    expect(matchesGeoQuery(gc, q({ name: "near", maxDistance: 1 }, inside))).to.equal(true);
  });

  it("an invalid target matches nothing", () => {
    expect(matchesGeoQuery({ type: "Point" }, q({ name: "disjoint" }, D1))).to.equal(false);
    expect(matchesGeoQuery("POINT(1 2)", q({ name: "disjoint" }, D1))).to.equal(false);
  });

  describe("the ETSI suite's Berlin fixtures (019_10, 019_11)", () => {
    const points = [pt(13.3986, 52.5547), pt(13.509818, 52.363457), pt(13.215983, 52.470441)];
    const polygons: Geometry[] = [
      {
        type: "Polygon",
        coordinates: [
          [
            [13.2865906, 52.5648645],
            [13.2879639, 52.5648645],
            [13.2797241, 52.4988679],
            [13.477478, 52.4712703],
            [13.5049438, 52.5373084],
            [13.2865906, 52.5648645],
          ],
        ],
      },
      {
        type: "Polygon",
        coordinates: [
          [
            [13.315773, 52.4757209],
            [13.339119, 52.4443421],
            [13.3892441, 52.4669371],
            [13.315773, 52.4757209],
          ],
        ],
      },
    ];
    const poly = (c: number[][]): Geometry => ({ type: "Polygon", coordinates: [c] });
    const count = (targets: Geometry[], query: GeoQuery) =>
      targets.filter((t) => matchesGeoQuery(t, query)).length;
    const ref = pt(13.38893, 52.534473);
    const area = poly([
      [13.1616211, 52.5438124],
      [13.597641, 52.4840224],
      [13.5948944, 52.3402782],
      [13.142395, 52.386428],
      [13.1616211, 52.5438124],
    ]);
    it("points: equals, near, within, disjoint, contains, intersects", () => {
      expect(count(points, q({ name: "equals" }, points[0]))).to.equal(1);
      expect(count(points, q({ name: "near", maxDistance: 15_000 }, ref))).to.equal(2);
      expect(count(points, q({ name: "near", minDistance: 15_000 }, ref))).to.equal(1);
      expect(count(points, q({ name: "within" }, area))).to.equal(2);
      expect(count(points, q({ name: "disjoint" }, area))).to.equal(1);
      expect(count(points, q({ name: "disjoint" }, points[0]))).to.equal(2);
      expect(count(points, q({ name: "contains" }, points[0]))).to.equal(1);
      expect(count(points, q({ name: "intersects" }, points[0]))).to.equal(1);
    });
    it("polygons: equals, intersects, contains, disjoint, within, overlaps", () => {
      const small = poly([
        [13.3456421, 52.4794848],
        [13.3641815, 52.4428773],
        [13.4177399, 52.4730023],
        [13.3459854, 52.479903],
        [13.3456421, 52.4794848],
      ]);
      const inner = poly([
        [13.3844376, 52.5356966],
        [13.3844376, 52.5356966],
        [13.381691, 52.5123012],
        [13.4235764, 52.5100027],
        [13.4331894, 52.5273425],
        [13.3844376, 52.5356966],
      ]);
      const west = poly([
        [13.1369019, 52.5198225],
        [13.1365585, 52.5200314],
        [13.131752, 52.4980907],
        [13.1832504, 52.5026887],
        [13.1369019, 52.5198225],
      ]);
      const south = poly([
        [13.3023834, 52.4903066],
        [13.3027267, 52.4905156],
        [13.2745743, 52.465632],
        [13.3343124, 52.4185447],
        [13.4311295, 52.47107],
        [13.3023834, 52.4903066],
      ]);
      expect(count(polygons, q({ name: "equals" }, polygons[0]))).to.equal(1);
      expect(count(polygons, q({ name: "intersects" }, small))).to.equal(1);
      expect(count(polygons, q({ name: "contains" }, inner))).to.equal(1);
      expect(count(polygons, q({ name: "contains" }, west))).to.equal(0);
      expect(count(polygons, q({ name: "disjoint" }, west))).to.equal(2);
      expect(count(polygons, q({ name: "within" }, south))).to.equal(1);
      expect(count(polygons, q({ name: "overlaps" }, small))).to.equal(1);
      expect(count(polygons, q({ name: "contains" }, pt(13.3442688, 52.4650045)))).to.equal(1);
    });
  });
});
