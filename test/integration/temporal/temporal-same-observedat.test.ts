import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

describe("temporal updates: an instance observed at the same time replaces the stored one", function () {
  this.timeout(20_000);
  let app: TestApp;
  const id = "urn:ngsi-ld:Vehicle:same-observedat";
  const T = "/ngsi-ld/v1/temporal/entities";

  before(async () => {
    app = await startTestApp();
  });
  after(() => app.destroy());

  it("keeps one instance per attribute, datasetId and observedAt (POST /temporal/entities and /attrs)", async () => {
    const fuel = (value: number, observedAt: string, datasetId?: string) => ({
      type: "Property",
      value,
      observedAt,
      ...(datasetId ? { datasetId } : {}),
    });
    const made = await http(app.url, "POST", T, {
      id,
      type: "Vehicle",
      fuelLevel: [fuel(40, "2026-11-20T10:00:00Z"), fuel(38, "2026-11-20T11:00:00Z")],
    });
    expect(made.status).to.equal(201);
    const again = await http(app.url, "POST", T, {
      id,
      type: "Vehicle",
      fuelLevel: [fuel(41, "2026-11-20T10:00:00Z"), fuel(7, "2026-11-20T10:00:00Z", "urn:ngsi-ld:Dataset:b")],
    });
    expect(again.status).to.equal(204);
    await http(app.url, "POST", `${T}/${id}/attrs`, { fuelLevel: fuel(39, "2026-11-20T11:00:00Z") });
    const r = await http(app.url, "GET", `${T}/${id}?options=temporalValues`);
    const values = (r.body as { fuelLevel: { values?: [number, string][]; datasetId?: string }[] }).fuelLevel;
    const byDataset = (ds?: string) => values.find((v) => v.datasetId === ds)?.values ?? [];
    expect(
      byDataset()
        .map((v) => v[0])
        .sort(),
    ).to.deep.equal([39, 41]);
    expect(byDataset("urn:ngsi-ld:Dataset:b").map((v) => v[0])).to.deep.equal([7]);
  });
});
