import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { healthDuring } from "../helpers/health-probe";

const ENTITIES = "/ngsi-ld/v1/entities";
type Json = Record<string, unknown>;

/** Hardening: user regular expressions run in linear time; a pattern the engine refuses is a 400. */
describe("regular expressions of clients (idPattern, q ~=, subscriptions) and of the SPARQL form check", function () {
  this.timeout(30_000);
  let app: TestApp;
  const victim = `urn:ngsi-ld:T:${"a".repeat(28)}!`;
  before(async () => {
    app = await startTestApp();
    const r = await http(app.url, "POST", ENTITIES, {
      id: victim,
      type: "T",
      name: { type: "Property", value: victim },
    });
    expect(r.status).to.equal(201);
  });
  after(async () => app.destroy());

  it("answers a catastrophic-backtracking idPattern and q ~= at once, /health within 100 ms meanwhile", async () => {
    const pattern = encodeURIComponent("(a+)+$");
    let answers: number[] = [];
    const worst = await healthDuring(app.url, async () => {
      answers = [
        (await http(app.url, "GET", `${ENTITIES}?type=T&idPattern=${pattern}`)).status,
        (await http(app.url, "GET", `${ENTITIES}?type=T&q=name~=${pattern}`)).status,
        (await http(app.url, "GET", `${ENTITIES}?type=T&q=name~=${encodeURIComponent("(?i)A.*!")}`)).status,
      ];
    });
    expect(answers).to.deep.equal([200, 200, 200]);
    expect(worst).to.be.below(100);
    const hit = await http(app.url, "GET", `${ENTITIES}?type=T&q=name~=${encodeURIComponent("(?i)A.*!")}`);
    expect((hit.body as Json[]).map((e) => e.id)).to.deep.equal([victim]);
  });

  it("refuses patterns the linear-time engine does not accept with 400 (huge repeats, lookarounds)", async () => {
    for (const p of ["a{99999999}", "(.*){1,32000}[bc]", "x(?=y)", "(a"]) {
      const q = encodeURIComponent(p);
      const byId = await http(app.url, "GET", `${ENTITIES}?type=T&idPattern=${q}`);
      expect(byId.status, p).to.equal(400);
      expect((byId.body as Json).type).to.equal("https://uri.etsi.org/ngsi-ld/errors/BadRequestData");
      expect((await http(app.url, "GET", `${ENTITIES}?type=T&q=name~=${q}`)).status, p).to.equal(400);
      const sub = await http(app.url, "POST", "/ngsi-ld/v1/subscriptions", {
        type: "Subscription",
        entities: [{ type: "T", idPattern: p }],
        notification: { endpoint: { uri: "http://example.org/n" } },
      });
      expect(sub.status, p).to.equal(400);
    }
    expect((await http(app.url, "GET", "/ngsi-ld/v1/subscriptions")).body).to.deep.equal([]);
  });

  it("reads the SPARQL query form in linear time (spaces then a brace)", async () => {
    const statuses: number[] = [];
    const worst = await healthDuring(app.url, async () => {
      statuses.length = 0;
      statuses.push((await http(app.url, "GET", `/sparql?query=${" ".repeat(26)}{`)).status);
      const long = { "Content-Type": "application/sparql-query" };
      statuses.push((await http(app.url, "POST", "/sparql", `${" ".repeat(100_000)}{`, long)).status);
      statuses.push((await http(app.url, "POST", "/sparql", `${"# c\n".repeat(20_000)}ASK {}`, long)).status);
    });
    expect(statuses).to.deep.equal([400, 400, 200]);
    expect(worst).to.be.below(100);
  });
});
