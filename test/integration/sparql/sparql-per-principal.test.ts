import { expect } from "chai";
import { bearer, login, userToken } from "../auth/auth-client";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const Q = { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" };
const values = (v: string) => `VALUES ?${v} { ${Array.from({ length: 400 }, (_, i) => i).join(" ")} }`;
/** A cross product of 64 M rows: seconds of work for the engine. */
const LONG = `SELECT (COUNT(*) AS ?n) WHERE { ${values("a")} ${values("b")} ${values("c")} }`;

/** Hardening: one principal's heavy queries take one slot; the others wait in a short queue or get 503. */
describe("SPARQL: queries per principal", function () {
  this.timeout(90_000);
  let app: TestApp;
  let heavy: string;
  let other: string;

  before(async () => {
    app = await startTestApp({ AUTH: "on", ADMIN_PASSWORD: "sparql-admin-pw-1", SPARQL_TIMEOUT: "4s" });
    const admin = (await login(app.url, "admin", "sparql-admin-pw-1")).access_token;
    heavy = await userToken(app.url, admin, { username: "heavy-viewer", role: "viewer", tier: "premium" });
    other = await userToken(app.url, admin, { username: "other-viewer", role: "viewer", tier: "premium" });
    // both principals have run a query before the clock starts
    const warm = await Promise.all(
      [heavy, other].map((t) => http(app.url, "POST", "/sparql", "ASK {}", { ...Q, ...bearer(t) })),
    );
    expect(warm.map((r) => r.status)).to.deep.equal([200, 200]);
  });
  after(async () => app?.destroy());

  it("refuses a viewer's fourth heavy query at once with 503 and Retry-After, while another viewer's ASK answers", async () => {
    const t0 = performance.now();
    const sent = Array.from({ length: 4 }, () =>
      http(app.url, "POST", "/sparql", LONG, { ...Q, ...bearer(heavy) }).then((r) => ({
        r,
        ms: performance.now() - t0,
      })),
    );
    const refused = await Promise.race(sent);
    expect(refused.r.status, refused.r.text).to.equal(503);
    expect(refused.ms).to.be.below(1000);
    expect(Number(refused.r.headers.get("retry-after"))).to.be.at.least(1);
    expect((refused.r.body as { detail: string }).detail).to.contain("Too many SPARQL queries");

    const t1 = performance.now();
    const ask = await http(app.url, "POST", "/sparql", "ASK {}", { ...Q, ...bearer(other) });
    const askMs = performance.now() - t1;
    expect(ask.status, ask.text).to.equal(200);
    expect((ask.body as { boolean: boolean }).boolean).to.equal(true);
    expect(askMs).to.be.below(1500);

    // the other three ran one after another (each done, or stopped at SPARQL_TIMEOUT)
    const ran = (await Promise.all(sent)).filter((x) => x !== refused);
    for (const x of ran) expect(x.r.status).to.be.oneOf([200, 503]);
    expect(Math.max(...ran.map((x) => x.ms)), "the queued queries ran one at a time").to.be.above(4000);
  });
});
