import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

describe("deleting an attribute of an entity only the temporal history holds (§5.6.5, §4.5.0)", function () {
  this.timeout(20_000);
  let app: TestApp;
  const id = "urn:ngsi-ld:Vehicle:history-only";

  before(async () => {
    app = await startTestApp();
    const made = await http(app.url, "POST", "/ngsi-ld/v1/temporal/entities", {
      id,
      type: "Vehicle",
      fuelLevel: [
        { type: "Property", value: 40, observedAt: "2026-11-20T10:00:00Z" },
        { type: "Property", value: 38, observedAt: "2026-11-20T11:00:00Z" },
      ],
    });
    expect(made.status).to.equal(201);
  });
  after(() => app.destroy());

  it("answers 204 and the history shows a deletion instance with deletedAt", async () => {
    // there is no current entity: POST /temporal/entities writes only the history
    expect((await http(app.url, "GET", `/ngsi-ld/v1/entities/${id}`)).status).to.equal(404);
    expect((await http(app.url, "DELETE", `/ngsi-ld/v1/entities/${id}/attrs/fuelLevel`)).status).to.equal(
      204,
    );
    const r = await http(app.url, "GET", `/ngsi-ld/v1/temporal/entities/${id}?timeproperty=deletedAt`);
    expect(r.status).to.equal(200);
    const fuel = (r.body as { fuelLevel: Record<string, unknown>[] }).fuelLevel;
    expect(fuel).to.have.length(1);
    expect(fuel[0].value).to.equal("urn:ngsi-ld:null");
    expect(fuel[0].deletedAt).to.be.a("string");
    // the instances before the deletion are still there
    const all = await http(app.url, "GET", `/ngsi-ld/v1/temporal/entities/${id}`);
    expect((all.body as { fuelLevel: unknown[] }).fuelLevel.length).to.be.at.least(2);
  });

  it("still answers 404 for an attribute the history does not hold either", async () => {
    expect((await http(app.url, "DELETE", `/ngsi-ld/v1/entities/${id}/attrs/speed`)).status).to.equal(404);
    const none = "urn:ngsi-ld:Vehicle:nowhere";
    expect((await http(app.url, "DELETE", `/ngsi-ld/v1/entities/${none}/attrs/fuelLevel`)).status).to.equal(
      404,
    );
  });
});
