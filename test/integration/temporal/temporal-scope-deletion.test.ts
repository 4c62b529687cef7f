import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

type Json = Record<string, unknown>;

describe("the temporal history of a deleted scope (§4.18, §4.5.0 deletedAt)", function () {
  this.timeout(20_000);
  let app: TestApp;
  const temporal = (id: string, q = "") => http(app.url, "GET", `/ngsi-ld/v1/temporal/entities/${id}${q}`);
  const fuel = [
    { type: "Property", value: 67, observedAt: "2020-08-01T12:03:00Z" },
    { type: "Property", value: 53, observedAt: "2020-08-01T13:05:00Z" },
  ];
  const scope = ["/Madrid/Gardens/ParqueNorte", "/CompanyA/OrganizationB/UnitC"];

  before(async () => {
    app = await startTestApp();
  });
  after(() => app.destroy());

  /** Deletes the scope of `id` and checks the deletion instance in both temporal representations. */
  async function deleteScopeAndCheck(id: string, instances: number): Promise<void> {
    expect((await http(app.url, "DELETE", `/ngsi-ld/v1/entities/${id}/attrs/scope`)).status).to.equal(204);
    const r = await temporal(id, "?timeproperty=deletedAt");
    expect(r.status).to.equal(200);
    const body = r.body as Json;
    // only the deletion: the scope as a Property whose value is the empty list; no other attribute
    expect(body).to.not.have.property("fuelLevel");
    const shown = body.scope as Json[];
    expect(shown).to.have.length(1);
    expect(shown[0]).to.include({ type: "Property" });
    expect(shown[0].value).to.deep.equal([]);
    expect(shown[0].deletedAt).to.be.a("string");
    const tv = (await temporal(id, "?timeproperty=deletedAt&options=temporalValues")).body as Json;
    const values = (tv.scope as { type: string; values: unknown[][] }).values;
    expect((tv.scope as { type: string }).type).to.equal("Property");
    expect(values).to.have.length(1);
    expect(values[0][0]).to.deep.equal([]);
    // the other instances stay, the entity shows no scope any more
    const all = (await temporal(id)).body as Json;
    expect([all.fuelLevel].flat()).to.have.length(instances);
    expect(all.scope).to.equal(undefined);
  }

  it("records the deletion of the scope of an entity only the history holds", async () => {
    const id = "urn:ngsi-ld:Vehicle:scope-history-only";
    const made = await http(app.url, "POST", "/ngsi-ld/v1/temporal/entities", {
      id,
      type: "Vehicle",
      scope,
      fuelLevel: fuel,
    });
    expect(made.status).to.equal(201);
    expect(((await temporal(id)).body as Json).scope).to.deep.equal(scope);
    await deleteScopeAndCheck(id, 2);
    // a second deletion finds no scope
    expect((await http(app.url, "DELETE", `/ngsi-ld/v1/entities/${id}/attrs/scope`)).status).to.equal(404);
  });

  it("records the deletion of the scope of a current entity", async () => {
    const id = "urn:ngsi-ld:Vehicle:scope-current";
    const made = await http(app.url, "POST", "/ngsi-ld/v1/entities", {
      id,
      type: "Vehicle",
      scope,
      fuelLevel: fuel[0],
    });
    expect(made.status).to.equal(201);
    await deleteScopeAndCheck(id, 1);
  });
});
