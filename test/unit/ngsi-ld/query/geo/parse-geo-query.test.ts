import { expect } from "chai";
import { AppError } from "../../../../../src/errors";
import { parseGeoQuery, type GeoQueryParams } from "../../../../../src/ngsi-ld/query/geo";
import { compileContext } from "../../../../../src/rdf/contexts/compile-context";
import { CORE_URL, loadContext } from "../../codec/local-contexts";

const ctx = compileContext([loadContext(CORE_URL)]);
const ex = compileContext([
  { "@context": { geo: "https://example.org/geo#", area: "geo:area" } },
  loadContext(CORE_URL),
]);

function error(p: GeoQueryParams, opts = {}): AppError {
  try {
    parseGeoQuery(p, ctx, opts);
  } catch (e) {
    expect(e).to.be.instanceOf(AppError);
    expect((e as AppError).kind).to.equal("BadRequestData");
    return e as AppError;
  }
  throw new Error("expected a 400");
}

const point = { georel: "near;maxDistance==500", geometry: "Point", coordinates: "[106.7,10.78]" };
const square = "[[[106.69,10.77],[106.71,10.77],[106.71,10.79],[106.69,10.79],[106.69,10.77]]]";

describe("parseGeoQuery (ETSI GS CIM 009 v1.8 §4.10, §5.2.13)", () => {
  it("returns undefined without a geo-query", () => {
    expect(parseGeoQuery({}, ctx)).to.equal(undefined);
  });

  it("parses near with maxDistance, a Point from URL text, and the default geoproperty", () => {
    expect(parseGeoQuery(point, ctx)).to.deep.equal({
      georel: { name: "near", maxDistance: 500 },
      geometry: { type: "Point", coordinates: [106.7, 10.78] },
      geoproperty: "location",
      geopropertyIri: "https://uri.etsi.org/ngsi-ld/location",
    });
  });

  it("parses near with both bounds and decimal numbers", () => {
    const q = parseGeoQuery({ ...point, georel: "near;minDistance==10.5;maxDistance==2e3" }, ctx);
    expect(q?.georel).to.deep.equal({ name: "near", minDistance: 10.5, maxDistance: 2000 });
  });

  it("accepts coordinates as a JSON array (POST geoQ) and every geometry type", () => {
    const geoms: [string, unknown][] = [
      ["Point", [106.7, 10.78]],
      ["MultiPoint", [[106.7, 10.78]]],
      [
        "LineString",
        [
          [106.7, 10.78],
          [106.71, 10.79],
        ],
      ],
      [
        "MultiLineString",
        [
          [
            [106.7, 10.78],
            [106.71, 10.79],
          ],
        ],
      ],
      ["Polygon", JSON.parse(square)],
      ["MultiPolygon", [JSON.parse(square)]],
    ];
    for (const [geometry, coordinates] of geoms) {
      const q = parseGeoQuery({ georel: "intersects", geometry, coordinates }, ctx);
      expect(q?.geometry).to.deep.equal({ type: geometry, coordinates });
      expect(q?.georel).to.deep.equal({ name: "intersects" });
    }
  });

  it("expands the geoproperty with the request's context", () => {
    const q = parseGeoQuery({ ...point, geoproperty: "area" }, ex);
    expect(q?.geoproperty).to.equal("area");
    expect(q?.geopropertyIri).to.equal("https://example.org/geo#area");
    const byIri = parseGeoQuery({ ...point, geoproperty: "https://example.org/geo#area" }, ex);
    expect(byIri?.geoproperty).to.equal("area");
    const plain = parseGeoQuery({ ...point, geoproperty: "observationSpace" }, ctx);
    expect(plain?.geopropertyIri).to.equal("https://uri.etsi.org/ngsi-ld/observationSpace");
    const unknown = parseGeoQuery({ ...point, geoproperty: "myGeo" }, ctx);
    expect(unknown?.geopropertyIri).to.equal("https://uri.etsi.org/ngsi-ld/default-context/myGeo");
  });

  const bad: [string, GeoQueryParams, RegExp, string][] = [
    ["an unknown georel", { ...point, georel: "invalid" }, /Unknown georel "invalid"/, "georel"],
    ["near without a distance", { ...point, georel: "near" }, /near needs maxDistance/, "georel"],
    [
      "a bad distance",
      { ...point, georel: "near;maxDistance==abc" },
      /maxDistance must be a non-negative number of metres, got "abc"/,
      "georel",
    ],
    ["a negative distance", { ...point, georel: "near;maxDistance==-5" }, /non-negative number/, "georel"],
    [
      "an unknown near modifier",
      { ...point, georel: "near;radius==5" },
      /expects maxDistance==<metres>/,
      "georel",
    ],
    [
      "a repeated bound",
      { ...point, georel: "near;maxDistance==5;maxDistance==6" },
      /maxDistance twice/,
      "georel",
    ],
    [
      "min above max",
      { ...point, georel: "near;minDistance==50;maxDistance==5" },
      /minDistance 50 is larger than maxDistance 5/,
      "georel",
    ],
    [
      "modifiers on within",
      { ...point, georel: "within;maxDistance==5" },
      /within takes no modifiers/,
      "georel",
    ],
    [
      "an unknown geometry",
      { ...point, geometry: "Circle" },
      /geometry must be one of Point, .*got "Circle"/,
      "geometry",
    ],
    [
      "a GeometryCollection",
      { ...point, geometry: "GeometryCollection" },
      /geometry must be one of/,
      "geometry",
    ],
    [
      "coordinates that are not JSON",
      { ...point, coordinates: "106.7,10.78]" },
      /coordinates must be a JSON array/,
      "coordinates",
    ],
    [
      "coordinates that are not an array",
      { ...point, coordinates: "5" },
      /coordinates must be a JSON array/,
      "coordinates",
    ],
    [
      "polygon coordinates for a Point",
      { ...point, coordinates: square },
      /do not fit geometry Point: .*nested 1 deep .*got 3 deep/,
      "coordinates",
    ],
    [
      "point coordinates for a Polygon",
      { ...point, georel: "within", geometry: "Polygon" },
      /do not fit geometry Polygon/,
      "coordinates",
    ],
    [
      "an unclosed ring",
      {
        georel: "within",
        geometry: "Polygon",
        coordinates: "[[[106.69,10.77],[106.71,10.77],[106.71,10.79],[106.69,10.79]]]",
      },
      /not a valid Polygon: .*(closed|at least 4)/,
      "coordinates",
    ],
    [
      "an open 4-point ring",
      {
        georel: "within",
        geometry: "Polygon",
        coordinates: "[[[106.69,10.77],[106.71,10.77],[106.71,10.79],[106.69,10.79],[106.7,10.7]]]",
      },
      /a linear ring must be closed/,
      "coordinates",
    ],
    [
      "a one-point LineString",
      { georel: "intersects", geometry: "LineString", coordinates: "[[106.7,10.78]]" },
      /not a valid LineString/,
      "coordinates",
    ],
    ["a position out of range", { ...point, coordinates: "[206.7,10.78]" }, /out of range/, "coordinates"],
    [
      "a position with a string",
      { ...point, coordinates: '[106.7,"10.78"]' },
      /array of 2 or 3 numbers/,
      "coordinates",
    ],
    [
      "georel without geometry",
      { georel: "near;maxDistance==5", coordinates: "[1,2]" },
      /needs geometry/,
      "geometry",
    ],
    [
      "georel without coordinates",
      { georel: "near;maxDistance==5", geometry: "Point" },
      /needs coordinates/,
      "coordinates",
    ],
    ["geometry without georel", { geometry: "Point", coordinates: "[1,2]" }, /needs georel/, "georel"],
    ["geoproperty alone", { geoproperty: "location" }, /geoproperty needs a georel/, "georel"],
    [
      "a bad geoproperty name",
      { ...point, geoproperty: "loc(ation)" },
      /geoproperty is not a valid attribute name/,
      "geoproperty",
    ],
  ];
  for (const [what, params, message, parameter] of bad) {
    it(`refuses ${what} with a 400 that says so`, () => {
      const e = error(params);
      expect(e.message).to.match(message);
      expect(e.details.parameter).to.equal(parameter);
    });
  }

  it("names geoQ members in POST errors", () => {
    const e = error({ ...point, georel: "nearby" }, { in: "geoQ" });
    expect(e.details.parameter).to.equal("geoQ.georel");
    expect(error({ georel: "within" }, { in: "geoQ" }).message).to.match(/needs geoQ\.geometry/);
  });
});
