import nodeHttp from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { startBrokerPair, stopBrokerPair } from "../helpers/broker-pair";
import { http, type TestApp } from "../helpers/test-app";

const REGS = "/ngsi-ld/v1/csourceRegistrations";
const ENTITIES = "/ngsi-ld/v1/entities";

const vehicle = (id: string, speed: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: "Vehicle",
  speed: { type: "Property", value: speed },
  ...extra,
});

const register = (at: TestApp, id: string, endpoint: string, extra: Record<string, unknown> = {}) =>
  http(at.url, "POST", REGS, {
    id,
    type: "ContextSourceRegistration",
    information: [{ entities: [{ type: "Vehicle" }] }],
    endpoint,
    ...extra,
  });

describe("distributed operations between two brokers (ETSI GS CIM 009 v1.8 §4.3.6)", function () {
  this.timeout(30_000);
  let a: TestApp;
  let b: TestApp;

  before(async () => {
    [a, b] = await startBrokerPair();
    expect((await http(a.url, "POST", ENTITIES, vehicle("urn:ngsi-ld:Vehicle:a1", 10))).status).to.equal(201);
    expect((await http(b.url, "POST", ENTITIES, vehicle("urn:ngsi-ld:Vehicle:b1", 20))).status).to.equal(201);
  });
  after(() => stopBrokerPair(a, b));

  it("inclusive: a query at the first broker returns its entities and the source's, merged", async () => {
    const reg = "urn:ngsi-ld:ContextSourceRegistration:inc";
    expect((await register(a, reg, b.url)).status).to.equal(201);
    try {
      const q = await http(a.url, "GET", `${ENTITIES}?type=Vehicle&count=true`);
      expect(q.status).to.equal(200);
      const got = q.body as { id: string; speed: { value: number } }[];
      expect(got.map((e) => e.id).sort()).to.deep.equal(["urn:ngsi-ld:Vehicle:a1", "urn:ngsi-ld:Vehicle:b1"]);
      expect(got.find((e) => e.id.endsWith("b1"))?.speed.value).to.equal(20);
      expect(q.headers.get("ngsild-results-count")).to.equal("2");
      expect(q.headers.get("ngsild-warning")).to.equal(null);
      // retrieval of an entity only the source holds
      const r = await http(a.url, "GET", `${ENTITIES}/urn:ngsi-ld:Vehicle:b1`);
      expect(r.status).to.equal(200);
      expect((r.body as { speed: { value: number } }).speed.value).to.equal(20);
      // local=true keeps the query local
      const local = await http(a.url, "GET", `${ENTITIES}?type=Vehicle&local=true`);
      expect((local.body as { id: string }[]).map((e) => e.id)).to.deep.equal(["urn:ngsi-ld:Vehicle:a1"]);
      // paging works over the merged answer
      const page = await http(a.url, "GET", `${ENTITIES}?type=Vehicle&limit=1&offset=1`);
      expect(page.body).to.have.length(1);
      // an inclusive registration with createEntity forwards the create: both brokers hold the entity
      await http(a.url, "PATCH", `${REGS}/${reg}`, { operations: ["redirectionOps"] });
      const made = await http(a.url, "POST", ENTITIES, vehicle("urn:ngsi-ld:Vehicle:both", 5));
      expect(made.status).to.equal(201);
      expect((await http(b.url, "GET", `${ENTITIES}/urn:ngsi-ld:Vehicle:both`)).status).to.equal(200);
      expect((await http(a.url, "GET", `${ENTITIES}/urn:ngsi-ld:Vehicle:both?local=true`)).status).to.equal(
        200,
      );
    } finally {
      await http(a.url, "DELETE", `${REGS}/${reg}`);
    }
  });

  it("exclusive: the registered attribute comes from the source, the others stay local", async () => {
    const id = "urn:ngsi-ld:Vehicle:shared";
    await http(a.url, "POST", ENTITIES, vehicle(id, 1, { brandName: { type: "Property", value: "Local" } }));
    await http(
      b.url,
      "POST",
      ENTITIES,
      vehicle(id, 99, { brandName: { type: "Property", value: "Remote" } }),
    );
    const reg = "urn:ngsi-ld:ContextSourceRegistration:exc";
    const made = await register(a, reg, b.url, {
      mode: "exclusive",
      information: [{ entities: [{ id, type: "Vehicle" }], propertyNames: ["speed"] }],
    });
    expect(made.status).to.equal(201);
    try {
      const r = await http(a.url, "GET", `${ENTITIES}/${id}`);
      expect(r.status).to.equal(200);
      const e = r.body as { speed: { value: number }; brandName: { value: string } };
      expect(e.speed.value).to.equal(99);
      expect(e.brandName.value).to.equal("Local");
      const q = await http(a.url, "GET", `${ENTITIES}?type=Vehicle&id=${id}`);
      const [only] = q.body as { speed: { value: number }; brandName: { value: string } }[];
      expect(only.speed.value).to.equal(99);
      expect(only.brandName.value).to.equal("Local");
    } finally {
      await http(a.url, "DELETE", `${REGS}/${reg}`);
    }
  });

  it("detects a loop of two brokers registered at each other and still answers", async () => {
    const ra = "urn:ngsi-ld:ContextSourceRegistration:loop-a";
    const rb = "urn:ngsi-ld:ContextSourceRegistration:loop-b";
    await register(a, ra, b.url);
    await register(b, rb, a.url);
    try {
      const started = Date.now();
      const q = await http(a.url, "GET", `${ENTITIES}?type=Vehicle`);
      expect(Date.now() - started).to.be.below(2000);
      expect(q.status).to.equal(200);
      const ids = (q.body as { id: string }[]).map((e) => e.id);
      expect(ids).to.include("urn:ngsi-ld:Vehicle:a1");
      expect(ids).to.include("urn:ngsi-ld:Vehicle:b1");
      // a request whose Via already names this broker is refused with 508 LoopDetected
      const looped = await http(a.url, "GET", `${ENTITIES}?type=Vehicle`, undefined, { Via: "1.1 broker-a" });
      expect(looped.status).to.equal(508);
      expect((looped.body as { type: string }).type).to.match(/LoopDetected$/);
    } finally {
      await http(a.url, "DELETE", `${REGS}/${ra}`);
      await http(b.url, "DELETE", `${REGS}/${rb}`);
    }
  });

  it("cuts a source that hangs at its timeout; the partial answer says so", async () => {
    const hanging = nodeHttp.createServer(() => undefined); // never answers
    await new Promise<void>((r) => hanging.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const reg = "urn:ngsi-ld:ContextSourceRegistration:hang";
    await register(a, reg, url, { management: { timeout: 300 } });
    try {
      const started = Date.now();
      const q = await http(a.url, "GET", `${ENTITIES}?type=Vehicle`);
      const took = Date.now() - started;
      expect(q.status).to.equal(200);
      expect(took).to.be.at.least(250).and.below(1500);
      expect((q.body as { id: string }[]).map((e) => e.id)).to.include("urn:ngsi-ld:Vehicle:a1");
      const warning = q.headers.get("ngsild-warning") ?? "";
      expect(warning).to.contain(url);
      expect(warning).to.contain(reg);
      expect(warning).to.contain("300 ms");
      // a forwarded write to the hanging source is a 207 naming the source; the local write is done
      await http(a.url, "PATCH", `${REGS}/${reg}`, { operations: ["redirectionOps"] });
      const w = await http(a.url, "PATCH", `${ENTITIES}/urn:ngsi-ld:Vehicle:a1/attrs`, {
        speed: { type: "Property", value: 11 },
      });
      expect(w.status).to.equal(207);
      const errors = (w.body as { errors: { registrationId: string; error: { status: number } }[] }).errors;
      expect(errors[0].registrationId).to.equal(reg);
      expect(errors[0].error.status).to.equal(504);
      const local = await http(a.url, "GET", `${ENTITIES}/urn:ngsi-ld:Vehicle:a1?local=true`);
      expect((local.body as { speed: { value: number } }).speed.value).to.equal(11);
    } finally {
      await http(a.url, "DELETE", `${REGS}/${reg}`);
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});
