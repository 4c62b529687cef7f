import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const Q = { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" };
const values = (v: string) => `VALUES ?${v} { ${Array.from({ length: 400 }, (_, i) => i).join(" ")} }`;
/** A cross product of 64 M rows: seconds of work for the engine. */
const LONG = `SELECT (COUNT(*) AS ?n) WHERE { ${values("a")} ${values("b")} ${values("c")} }`;

/** Hardening: a long SPARQL query does not hold up the short ones behind it. */
describe("SPARQL: short queries while a long one runs", function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    // both from one client address: let it run two at once
    app = await startTestApp({ SPARQL_TIMEOUT: "8s", SPARQL_MAX_PER_PRINCIPAL: "2" });
    expect((await http(app.url, "POST", "/sparql", "ASK {}", Q)).status).to.equal(200);
  });
  after(async () => app.destroy());

  it("answers ASK {} in well under the long query's time", async () => {
    const t0 = performance.now();
    const long = http(app.url, "POST", "/sparql", LONG, Q).then((r) => ({ r, ms: performance.now() - t0 }));
    await new Promise((r) => setTimeout(r, 300)); // the long query is running
    const t1 = performance.now();
    const ask = await http(app.url, "POST", "/sparql", "ASK {}", Q);
    const askMs = performance.now() - t1;
    const { r, ms } = await long;
    expect(ask.status).to.equal(200);
    expect(r.status).to.be.oneOf([200, 503]); // done, or stopped at SPARQL_TIMEOUT
    expect(ms, "the long query was not long").to.be.above(2000);
    expect(askMs).to.be.below(ms / 2);
  });
});
