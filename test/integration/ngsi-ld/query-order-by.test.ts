import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const ENTITIES = "/ngsi-ld/v1/entities";

describe("GET /entities with orderBy (ETSI GS CIM 009 v1.9 §4.23)", function () {
  this.timeout(20_000);
  let app: TestApp;
  const building = (n: number, name: string, sub: number) => ({
    id: `urn:ngsi-ld:Building:o${n}`,
    type: "Building",
    name: { type: "Property", value: name, subProperty: { type: "Property", value: sub } },
  });

  before(async () => {
    app = await startTestApp();
    // created in the order 2, 1, 3, so createdAt orders them 2, 1, 3
    for (const b of [building(2, "B", 2), building(1, "A", 1), building(3, "C", 3)]) {
      expect((await http(app.url, "POST", ENTITIES, b)).status).to.equal(201);
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  after(() => app.destroy());

  const order = async (orderBy: string, extra = "") => {
    const r = await http(
      app.url,
      "GET",
      `${ENTITIES}?type=Building&orderBy=${encodeURIComponent(orderBy)}${extra}`,
    );
    expect(r.status, orderBy).to.equal(200);
    return (r.body as { id: string }[]).map((e) => e.id.replace("urn:ngsi-ld:Building:", ""));
  };

  it("orders by an attribute, id, createdAt, a sub-attribute, in either direction, by several keys", async () => {
    expect(await order("name")).to.deep.equal(["o1", "o2", "o3"]);
    expect(await order("name;desc")).to.deep.equal(["o3", "o2", "o1"]);
    expect(await order("id;desc")).to.deep.equal(["o3", "o2", "o1"]);
    expect(await order("createdAt")).to.deep.equal(["o2", "o1", "o3"]);
    expect(await order("name.createdAt")).to.deep.equal(["o2", "o1", "o3"]);
    expect(await order("name.subProperty;desc")).to.deep.equal(["o3", "o2", "o1"]);
    expect(await order("type;asc,name.subProperty;desc,name;asc")).to.deep.equal(["o3", "o2", "o1"]);
  });

  it("pages after sorting and counts every match", async () => {
    const r = await http(
      app.url,
      "GET",
      `${ENTITIES}?type=Building&orderBy=name;desc&limit=1&offset=1&count=true`,
    );
    expect((r.body as { id: string }[]).map((e) => e.id)).to.deep.equal(["urn:ngsi-ld:Building:o2"]);
    expect(r.headers.get("ngsild-results-count")).to.equal("3");
  });

  it("orders temporal entities the same way (GET /temporal/entities)", async () => {
    const temporal = async (orderBy: string) => {
      const q = `type=Building&timerel=after&timeAt=1970-01-01T00:00:00Z&timeproperty=createdAt&orderBy=${encodeURIComponent(orderBy)}`;
      const r = await http(app.url, "GET", `/ngsi-ld/v1/temporal/entities?${q}`);
      expect(r.status, orderBy).to.equal(200);
      return (r.body as { id: string }[]).map((e) => e.id.replace("urn:ngsi-ld:Building:", ""));
    };
    expect(await temporal("name")).to.deep.equal(["o1", "o2", "o3"]);
    expect(await temporal("name;desc")).to.deep.equal(["o3", "o2", "o1"]);
    expect(await temporal("createdAt")).to.deep.equal(["o2", "o1", "o3"]);
    expect(await temporal("name.subProperty;desc")).to.deep.equal(["o3", "o2", "o1"]);
  });

  it("refuses a malformed orderBy with 400", async () => {
    for (const bad of ["name;up", "name..x", ";asc", "name;asc;desc"]) {
      const r = await http(app.url, "GET", `${ENTITIES}?type=Building&orderBy=${encodeURIComponent(bad)}`);
      expect(r.status, bad).to.equal(400);
    }
  });
});
