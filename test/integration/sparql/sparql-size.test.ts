import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { healthDuring } from "../helpers/health-probe";

const Q = { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" };
type Json = Record<string, unknown>;

/** Hardening: SPARQL texts that would crash or stall the parser are refused before parsing. */
describe("SPARQL query size and nesting limits", function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ SPARQL_MAX_QUERY_LENGTH: "100000" });
    // a first query before health is measured
    expect((await http(app.url, "POST", "/sparql", "ASK {}", Q)).status).to.equal(200);
  });
  after(async () => app.destroy());

  const huge: [string, string][] = [
    [
      "a VALUES of 200,000 values",
      `SELECT * { VALUES ?v { ${Array.from({ length: 200_000 }, (_, i) => i).join(" ")} } }`,
    ],
    ["5,000 nested groups", `ASK ${"{".repeat(5000)}${"}".repeat(5000)}`],
    ["5,000 nested parentheses", `ASK { FILTER(${"(".repeat(5000)}1${")".repeat(5000)}) }`],
    ["3,000 &&", `ASK { FILTER(${Array.from({ length: 3000 }, (_, i) => `?x = ${i}`).join(" && ")}) }`],
  ];
  for (const [what, text] of huge) {
    it(`refuses ${what} with 400 before parsing, and keeps answering`, async () => {
      let r: Awaited<ReturnType<typeof http>> | undefined;
      const worst = await healthDuring(app.url, async () => {
        r = await http(app.url, "POST", "/sparql", text, Q);
      });
      // 413 when the body alone is longer than any query that SPARQL_MAX_QUERY_LENGTH allows
      expect(r?.status).to.be.oneOf([400, 413]);
      expect((r?.body as Json).detail).to.match(/refused|more than the limit/);
      expect(worst).to.be.below(100);
      const ask = await http(app.url, "POST", "/sparql", "ASK {}", Q);
      expect(ask.status).to.equal(200);
      expect((ask.body as Json).boolean).to.equal(true);
    });
  }

  it("still answers queries with braces, <, && and || inside strings and IRIs", async () => {
    const text = `SELECT * WHERE { BIND("{{{{ && || ((((" AS ?s) FILTER(1 < 2 && 2 < 3 || <urn:a> = <urn:a>) } # {{{{`;
    const r = await http(app.url, "POST", "/sparql", text, Q);
    expect(r.status).to.equal(200);
  });
});
