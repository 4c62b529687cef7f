import nodeHttp from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { startBrokerPair, stopBrokerPair } from "../helpers/broker-pair";
import { http, type TestApp } from "../helpers/test-app";

const REGS = "/ngsi-ld/v1/csourceRegistrations";
const ENTITIES = "/ngsi-ld/v1/entities";

/** A context source that records what it is sent and answers with `answer(path)`. */
interface Recorder {
  url: string;
  seen: { method: string; url: string; body: string }[];
  close(): void;
}

async function recorder(answer: (url: string) => unknown): Promise<Recorder> {
  const seen: Recorder["seen"] = [];
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const body = answer(req.url ?? "");
      if (body === undefined) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe("what a broker sends its context sources (ETSI GS CIM 009 v1.8 §4.3.6)", function () {
  this.timeout(30_000);
  let a: TestApp;
  let b: TestApp;
  const reg = "urn:ngsi-ld:ContextSourceRegistration:fwd";
  const reg2 = "urn:ngsi-ld:ContextSourceRegistration:fwd2";

  before(async () => {
    [a, b] = await startBrokerPair();
  });
  after(() => stopBrokerPair(a, b));
  afterEach(async () => {
    await http(a.url, "DELETE", `${REGS}/${reg}`);
    await http(a.url, "DELETE", `${REGS}/${reg2}`);
  });

  const register = (endpoint: string, extra: Record<string, unknown>, id = reg) =>
    http(a.url, "POST", REGS, { id, type: "ContextSourceRegistration", endpoint, ...extra });

  it("inclusive: a write the source takes and the local store refuses is a 207 naming the local part", async () => {
    const only = "urn:ngsi-ld:Vehicle:onlyAtSource";
    await http(b.url, "POST", ENTITIES, { id: only, type: "Vehicle", speed: { type: "Property", value: 1 } });
    const made = await register(b.url, {
      information: [{ entities: [{ id: only, type: "Vehicle" }] }],
      operations: ["redirectionOps"],
    });
    expect(made.status).to.equal(201);
    const w = await http(a.url, "PATCH", `${ENTITIES}/${only}/attrs`, {
      speed: { type: "Property", value: 2 },
    });
    expect(w.status).to.equal(207);
    const errors = (w.body as { errors: { registrationId?: string; error: { status: number } }[] }).errors;
    expect(errors).to.have.length(1);
    expect(errors[0].registrationId).to.equal(undefined);
    expect(errors[0].error.status).to.equal(404);
    const there = await http(b.url, "GET", `${ENTITIES}/${only}`);
    expect((there.body as { speed: { value: number } }).speed.value).to.equal(2);
  });

  it("exclusive: a query is narrowed to the registered entity and attributes", async () => {
    const id = "urn:ngsi-ld:Vehicle:narrowed";
    const src = await recorder(() => []);
    try {
      const made = await register(src.url, {
        mode: "exclusive",
        information: [{ entities: [{ id, type: "Vehicle" }], propertyNames: ["speed"] }],
      });
      expect(made.status).to.equal(201);
      expect((await http(a.url, "GET", `${ENTITIES}?type=Vehicle`)).status).to.equal(200);
      expect(src.seen.map((r) => r.url)).to.deep.equal([`${ENTITIES}?type=Vehicle&id=${id}&attrs=speed`]);
    } finally {
      src.close();
    }
  });

  it("a retrieval goes as a query to a registration naming queryEntity but not retrieveEntity", async () => {
    const id = "urn:ngsi-ld:Vehicle:byQuery";
    const src = await recorder(() => [
      { id, type: "Vehicle", speed: { type: "Property", value: 7 } },
      { id: "urn:ngsi-ld:Vehicle:other", type: "Vehicle" },
    ]);
    try {
      const made = await register(src.url, {
        information: [{ entities: [{ type: "Vehicle" }] }],
        operations: ["queryEntity"],
      });
      expect(made.status).to.equal(201);
      const r = await http(a.url, "GET", `${ENTITIES}/${id}`);
      expect(r.status).to.equal(200);
      expect((r.body as { id: string; speed: { value: number } }).speed.value).to.equal(7);
      expect(src.seen.map((s) => s.url)).to.deep.equal([`${ENTITIES}?id=${id}&type=Vehicle`]);
    } finally {
      src.close();
    }
  });

  it("a retrieval goes as a POST query to a registration naming queryBatch alone", async () => {
    const id = "urn:ngsi-ld:Vehicle:byBatch";
    const src = await recorder(() => ({ id, type: "Vehicle", speed: { type: "Property", value: 8 } }));
    try {
      const made = await register(src.url, {
        information: [{ entities: [{ type: "Vehicle" }] }],
        operations: ["queryBatch"],
      });
      expect(made.status).to.equal(201);
      const r = await http(a.url, "GET", `${ENTITIES}/${id}?attrs=speed`);
      expect(r.status).to.equal(200);
      expect((r.body as { speed: { value: number } }).speed.value).to.equal(8);
      expect(src.seen.map((s) => [s.method, s.url])).to.deep.equal([
        ["POST", "/ngsi-ld/v1/entityOperations/query"],
      ]);
      expect(JSON.parse(src.seen[0].body)).to.deep.equal({
        type: "Query",
        entities: [{ id, type: "Vehicle" }],
        attrs: ["speed"],
      });
    } finally {
      src.close();
    }
  });

  it("redirect: two sources of one whole entity each add what the other lacks", async () => {
    const id = "urn:ngsi-ld:Vehicle:twoSources";
    const src = await recorder((url) =>
      url.startsWith("/one/")
        ? { id, type: "Vehicle", speed: { type: "Property", value: 3 } }
        : { id, type: "Vehicle", brandName: { type: "Property", value: "B" } },
    );
    try {
      const info = { information: [{ entities: [{ id, type: "Vehicle" }] }], mode: "redirect" };
      expect((await register(`${src.url}/one`, info)).status).to.equal(201);
      expect((await register(`${src.url}/two`, info, reg2)).status).to.equal(201);
      const r = await http(a.url, "GET", `${ENTITIES}/${id}`);
      expect(r.status).to.equal(200);
      const e = r.body as { speed: { value: number }; brandName: { value: string } };
      expect(e.speed.value).to.equal(3);
      expect(e.brandName.value).to.equal("B");
    } finally {
      src.close();
    }
  });

  it("POST /entityOperations/query goes to the sources naming queryBatch and is merged with the local answer", async () => {
    const here = "urn:ngsi-ld:Vehicle:batchQueryLocal";
    const there = "urn:ngsi-ld:Vehicle:batchQueryRemote";
    const src = await recorder(() => [{ id: there, type: "Vehicle", speed: { type: "Property", value: 2 } }]);
    try {
      await http(a.url, "POST", ENTITIES, {
        id: here,
        type: "Vehicle",
        speed: { type: "Property", value: 1 },
      });
      const made = await register(src.url, { information: [{ entities: [{ type: "Vehicle" }] }] });
      expect(made.status).to.equal(201);
      const query = {
        type: "Query",
        entities: [{ type: "Vehicle", idPattern: ".*batchQuery.*" }],
        attrs: ["speed"],
      };
      const r = await http(a.url, "POST", "/ngsi-ld/v1/entityOperations/query?count=true", query);
      expect(r.status).to.equal(200);
      const got = (r.body as { id: string; speed: { value: number } }[]).map((e) => [e.id, e.speed.value]);
      expect(got).to.have.deep.members([
        [here, 1],
        [there, 2],
      ]);
      expect(r.headers.get("ngsild-results-count")).to.equal("2");
      expect(src.seen.map((x) => [x.method, x.url])).to.deep.equal([
        ["POST", "/ngsi-ld/v1/entityOperations/query"],
      ]);
      expect(JSON.parse(src.seen[0].body)).to.deep.equal(query);
    } finally {
      src.close();
      await http(a.url, "DELETE", `${ENTITIES}/${here}`);
    }
  });

  it("exclusive: a POST query is narrowed to the registered entity and attributes", async () => {
    const id = "urn:ngsi-ld:Vehicle:batchNarrowed";
    const src = await recorder(() => []);
    try {
      const made = await register(src.url, {
        mode: "exclusive",
        information: [{ entities: [{ id, type: "Vehicle" }], propertyNames: ["speed"] }],
      });
      expect(made.status).to.equal(201);
      const query = { type: "Query", entities: [{ type: "Vehicle" }] };
      expect((await http(a.url, "POST", "/ngsi-ld/v1/entityOperations/query", query)).status).to.equal(200);
      expect(src.seen.map((x) => JSON.parse(x.body) as unknown)).to.deep.equal([
        { type: "Query", entities: [{ type: "Vehicle", id }], attrs: ["speed"] },
      ]);
      // a body the broker cannot read is not sent anywhere: the local 400
      const bad = await http(a.url, "POST", "/ngsi-ld/v1/entityOperations/query", { type: "Nope" });
      expect(bad.status).to.equal(400);
      expect(src.seen).to.have.length(1);
    } finally {
      src.close();
    }
  });
});
