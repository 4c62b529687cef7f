import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const ENTITIES = "/ngsi-ld/v1/entities";
type Json = Record<string, unknown>;
const geo = (value: unknown) => ({ type: "GeoProperty", value });
const square = [
  [
    [106.7, 10.7],
    [106.8, 10.7],
    [106.8, 10.8],
    [106.7, 10.8],
    [106.7, 10.7],
  ],
];

/** Hardening: a geometry that every later geo-query would choke on is refused when written. */
describe("geometry validation on write", function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.destroy());

  const bad: [string, unknown][] = [
    [
      "a polygon of four identical points",
      {
        type: "Polygon",
        coordinates: [
          [
            [1, 1],
            [1, 1],
            [1, 1],
            [1, 1],
          ],
        ],
      },
    ],
    [
      "a polygon of collinear points",
      {
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [2, 2],
            [0, 0],
          ],
        ],
      },
    ],
    [
      "an open ring",
      {
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      },
    ],
    [
      "a line of one repeated point",
      {
        type: "LineString",
        coordinates: [
          [5, 5],
          [5, 5],
        ],
      },
    ],
    ["a latitude out of range", { type: "Point", coordinates: [106, 91] }],
    [
      "a multipolygon with a degenerate member",
      {
        type: "MultiPolygon",
        coordinates: [
          square,
          [
            [
              [1, 1],
              [1, 1],
              [1, 1],
              [1, 1],
            ],
          ],
        ],
      },
    ],
  ];
  for (const [i, [what, value]] of bad.entries()) {
    it(`refuses ${what} with 400, nothing stored`, async () => {
      const id = `urn:ngsi-ld:G:bad${i}`;
      const r = await http(app.url, "POST", ENTITIES, { id, type: "G", location: geo(value) });
      expect(r.status).to.equal(400);
      expect((r.body as Json).type).to.equal("https://uri.etsi.org/ngsi-ld/errors/BadRequestData");
      expect((await http(app.url, "GET", `${ENTITIES}/${id}`)).status).to.equal(404);
    });
  }

  it("keeps answering georel=equals and near over valid polygons", async () => {
    const r = await http(app.url, "POST", ENTITIES, {
      id: "urn:ngsi-ld:G:ok",
      type: "G",
      location: geo({ type: "Polygon", coordinates: square }),
    });
    expect(r.status).to.equal(201);
    const q = await http(
      app.url,
      "GET",
      `${ENTITIES}?type=G&georel=equals&geometry=Polygon&coordinates=${encodeURIComponent(JSON.stringify(square))}`,
    );
    expect(q.status).to.equal(200);
    expect((q.body as Json[]).map((e) => e.id)).to.deep.equal(["urn:ngsi-ld:G:ok"]);
  });
});
