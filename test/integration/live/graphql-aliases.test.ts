import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { healthDuring } from "../helpers/health-probe";

/** `n` aliases of one camera lookup (41 KB for 1,000): under the cost limit a node count gives it. */
const aliased = (n: number, prefix = "a") =>
  `{ ${Array.from({ length: n }, (_, i) => `${prefix}${i}: camera(id: "1") { id name status }`).join(" ")} }`;

/** Hardening: one GraphQL document cannot hold the main thread with aliases. */
describe("GraphQL: aliases", function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.destroy());

  it("refuses 1,000 aliases of one lookup with TOO_MANY_ALIASES, before validating them", async () => {
    const r = await http(app.url, "POST", "/graphql", { query: aliased(1000) });
    const body = r.body as {
      data?: unknown;
      errors: { message: string; extensions: Record<string, unknown> }[];
    };
    expect(body.data).to.equal(undefined);
    expect(body.errors[0].extensions).to.include({ code: "TOO_MANY_ALIASES", aliases: 1000, maxAliases: 50 });
    expect(body.errors[0].message).to.contain("1000 aliased fields");
  });

  it("refuses aliases that a fragment repeats where it is spread", async () => {
    const frag = `fragment F on Camera { ${Array.from({ length: 10 }, (_, i) => `n${i}: name`).join(" ")} }`;
    const query = `{ ${Array.from({ length: 10 }, (_, i) => `c${i}: camera(id: "${i}") { ...F }`).join(" ")} } ${frag}`;
    const r = await http(app.url, "POST", "/graphql", { query });
    const body = r.body as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0].extensions).to.include({ code: "TOO_MANY_ALIASES", aliases: 110 });
  });

  it("keeps /health fast while such documents arrive", async () => {
    let n = 0;
    const worst = await healthDuring(app.url, () =>
      Promise.all(
        Array.from({ length: 4 }, () =>
          http(app.url, "POST", "/graphql", { query: aliased(1000, `p${n++}x`) }),
        ),
      ),
    );
    expect(worst).to.be.below(250);
  });
});
