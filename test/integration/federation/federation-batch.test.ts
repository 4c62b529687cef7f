import nodeHttp from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { startBrokerPair, stopBrokerPair } from "../helpers/broker-pair";
import { http, type TestApp } from "../helpers/test-app";

const REGS = "/ngsi-ld/v1/csourceRegistrations";
const ENTITIES = "/ngsi-ld/v1/entities";
const OPS = "/ngsi-ld/v1/entityOperations";

const vehicle = (id: string, speed: number, brand: string) => ({
  id,
  type: "Vehicle",
  speed: { type: "Property", value: speed },
  brandName: { type: "Property", value: brand },
});

type Shown = { id: string; speed?: { value: number }; brandName?: { value: string } };

describe("distributed batch operations and purge (ETSI GS CIM 009 v1.8 §4.3.6.2, §4.3.6.3)", function () {
  this.timeout(30_000);
  let a: TestApp;
  let b: TestApp;
  const reg = "urn:ngsi-ld:ContextSourceRegistration:batch";

  before(async () => {
    [a, b] = await startBrokerPair();
  });
  after(() => stopBrokerPair(a, b));
  afterEach(async () => {
    await http(a.url, "DELETE", `${REGS}/${reg}`);
    await http(a.url, "DELETE", `${ENTITIES}?type=Vehicle&local=true`);
    await http(b.url, "DELETE", `${ENTITIES}?type=Vehicle&local=true`);
  });

  const local = async (at: TestApp, id: string) =>
    (await http(at.url, "GET", `${ENTITIES}/${id}?local=true`)).body as Shown;

  it("exclusive: a batch create sends the registered attribute to the source and keeps the rest", async () => {
    const made = await http(a.url, "POST", REGS, {
      id: reg,
      type: "ContextSourceRegistration",
      information: [
        { entities: [{ idPattern: "urn:ngsi-ld:Vehicle:x.*", type: "Vehicle" }], propertyNames: ["speed"] },
      ],
      mode: "exclusive",
      operations: ["createBatch", "deleteBatch"],
      endpoint: b.url,
    });
    expect(made.status).to.equal(201);
    const ids = ["urn:ngsi-ld:Vehicle:x1", "urn:ngsi-ld:Vehicle:x2"];
    const res = await http(a.url, "POST", `${OPS}/create`, [
      vehicle(ids[0], 10, "A"),
      vehicle(ids[1], 20, "B"),
    ]);
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal(ids);
    const atSource = await local(b, ids[1]);
    expect(atSource.speed?.value).to.equal(20);
    expect(atSource.brandName).to.equal(undefined);
    const atHome = await local(a, ids[1]);
    expect(atHome.brandName?.value).to.equal("B");
    expect(atHome.speed).to.equal(undefined);

    // a batch delete goes to both: the source's part and the local part of each entity go
    const del = await http(a.url, "POST", `${OPS}/delete`, ids);
    expect(del.status).to.equal(204);
    for (const id of ids) {
      expect((await http(a.url, "GET", `${ENTITIES}/${id}?local=true`)).status).to.equal(404);
      expect((await http(b.url, "GET", `${ENTITIES}/${id}?local=true`)).status).to.equal(404);
    }
  });

  it("redirect: a batch update goes to the source alone; a failing source makes a 207", async () => {
    const id = "urn:ngsi-ld:Vehicle:r1";
    await http(b.url, "POST", ENTITIES, vehicle(id, 1, "Remote"));
    await http(a.url, "POST", REGS, {
      id: reg,
      type: "ContextSourceRegistration",
      information: [{ entities: [{ type: "Vehicle" }] }],
      mode: "redirect",
      operations: ["updateBatch"],
      endpoint: b.url,
    });
    const res = await http(a.url, "POST", `${OPS}/update`, [
      { id, type: "Vehicle", speed: { type: "Property", value: 7 } },
    ]);
    expect(res.status).to.equal(204);
    expect((await local(b, id)).speed?.value).to.equal(7);
    expect((await http(a.url, "GET", `${ENTITIES}/${id}?local=true`)).status).to.equal(404);

    // the source does not hold this one: its 207 becomes an error naming the registration
    const missing = "urn:ngsi-ld:Vehicle:r-none";
    const bad = await http(a.url, "POST", `${OPS}/update`, [
      { id: missing, type: "Vehicle", speed: { type: "Property", value: 7 } },
    ]);
    expect(bad.status).to.equal(207);
    const body = bad.body as { success: string[]; errors: { entityId: string; registrationId: string }[] };
    expect(body.success).to.deep.equal([]);
    expect(body.errors.map((e) => [e.entityId, e.registrationId])).to.deep.equal([[missing, reg]]);
  });

  it("inclusive: purge by type empties both brokers", async () => {
    await http(a.url, "POST", ENTITIES, vehicle("urn:ngsi-ld:Vehicle:p1", 1, "Home"));
    await http(b.url, "POST", ENTITIES, vehicle("urn:ngsi-ld:Vehicle:p2", 2, "Away"));
    await http(a.url, "POST", REGS, {
      id: reg,
      type: "ContextSourceRegistration",
      information: [{ entities: [{ type: "Vehicle" }] }],
      operations: ["redirectionOps"],
      endpoint: b.url,
    });
    const res = await http(a.url, "DELETE", `${ENTITIES}?type=Vehicle`);
    expect(res.status).to.equal(204);
    for (const at of [a, b]) {
      const left = await http(at.url, "GET", `${ENTITIES}?type=Vehicle&local=true`);
      expect(left.body).to.deep.equal([]);
    }
  });

  it("a write the one redirect source answers with 207 is a 207 naming it, never a 5xx", async () => {
    const source = nodeHttp.createServer((req, res) => {
      req.resume();
      res.writeHead(207, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ updated: ["speed"], notUpdated: [{ attributeName: "x", reason: "no" }] }));
    });
    await new Promise<void>((done) => source.listen(0, "127.0.0.1", done));
    try {
      const port = (source.address() as AddressInfo).port;
      await http(a.url, "POST", REGS, {
        id: reg,
        type: "ContextSourceRegistration",
        information: [{ entities: [{ type: "Vehicle" }] }],
        mode: "redirect",
        operations: ["updateAttrs"],
        endpoint: `http://127.0.0.1:${port}`,
      });
      const res = await http(a.url, "PATCH", `${ENTITIES}/urn:ngsi-ld:Vehicle:s1/attrs`, {
        speed: { type: "Property", value: 3 },
      });
      expect(res.status).to.equal(207);
      const errors = (res.body as { errors: { registrationId: string; error: { status: number } }[] }).errors;
      expect(errors.map((e) => [e.registrationId, e.error.status])).to.deep.equal([[reg, 207]]);
    } finally {
      source.close();
    }
  });
});
