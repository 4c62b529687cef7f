import { expect } from "chai";
import nodeHttp from "node:http";
import { bearer, login } from "../auth/auth-client";
import { startTestApp, type TestApp } from "../helpers/test-app";

const TREE = "https://w3id.org/tree#";
const PUBLIC_URL = "https://traffic.example.org/city";
const ADMIN_PASSWORD = "ldes-bounds-admin-pw-1";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GET over node:http, which sends the Host header it is given (fetch does not). */
function get(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: nodeHttp.IncomingHttpHeaders; text: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    nodeHttp
      .get({ host: u.hostname, port: u.port, path, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(parts).toString(),
          }),
        );
      })
      .on("error", reject);
  });
}

/** The path of an IRI minted under PUBLIC_URL. */
const pathOf = (iri: string): string => {
  expect(iri.startsWith(`${PUBLIC_URL}/`), iri).to.equal(true);
  return iri.slice(PUBLIC_URL.length);
};

/** The objects of `s <p> ?o` in N-Triples `text` (`s` an N-Triples term: `<iri>` or `_:b`). */
const objects = (text: string, s: string, p: string): string[] =>
  text
    .split("\n")
    .filter((l) => l.startsWith(`${s} <${p}> `))
    .map((l) => l.slice(`${s} <${p}> `.length, -2).replace(/^<|>$/g, ""));

describe("LDES bounds: pages cut by members, IRIs from PUBLIC_URL, private when credentialed", function () {
  this.timeout(120_000);
  let app: TestApp;
  let token: string;
  let auth: Record<string, string>;

  before(async () => {
    app = await startTestApp({
      SEED: "on",
      AUTH: "on",
      ADMIN_PASSWORD,
      LDES_PAGE: "2s",
      LDES_PAGE_MEMBERS: "100",
      PUBLIC_URL: `${PUBLIC_URL}/`,
    });
    token = (await login(app.url, "admin", ADMIN_PASSWORD)).access_token;
    auth = { ...bearer(token), Accept: "application/n-triples" };
    await sleep(4_500); // the seed's pages close (2 s page + 2 s grace)
  });
  after(async () => app?.destroy());

  /** The first parts of the pages the view links. */
  const firstParts = async (): Promise<string[]> => {
    const view = await get(app.url, "/ldes/view", auth);
    expect(view.status).to.equal(200);
    return [...new Set([...view.text.matchAll(/tree#node> <([^>]+)>/g)].map((m) => m[1]))].sort();
  };

  it("mints every IRI under PUBLIC_URL whatever Host says; ten Hosts get one and the same page", async () => {
    const view = await get(app.url, "/ldes/view", { ...auth, Host: "evil.example" });
    expect(view.text).not.to.contain("evil.example");
    expect(view.text).to.contain(`<${PUBLIC_URL}/ldes> <${TREE}view> <${PUBLIC_URL}/ldes/view>`);
    const [first] = await firstParts();
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push(await get(app.url, pathOf(first), { ...auth, Host: `h${i}.example` }));
    for (const a of answers) {
      expect(a.status).to.equal(200);
      expect(a.text).not.to.match(/h\d\.example/);
      expect(a.text).to.equal(answers[0].text);
      expect(a.headers.etag).to.equal(answers[0].headers.etag);
    }
  });

  it("holds at most LDES_PAGE_MEMBERS members a part; the parts chain, in time order, to every member", async () => {
    let chained = 0;
    for (const first of await firstParts()) {
      const seen = new Set<string>();
      let lastAt = -Infinity;
      let part: string | undefined = first;
      let parts = 0;
      while (part) {
        const r = await get(app.url, pathOf(part), auth);
        expect(r.status, part).to.equal(200);
        const members = objects(r.text, `<${PUBLIC_URL}/ldes>`, `${TREE}member`);
        expect(members.length, part).to.be.within(1, 100);
        for (const m of members) {
          expect(seen.has(m), m).to.equal(false);
          seen.add(m);
          const at = Date.parse(m.split("#")[1]);
          expect(at, m).to.be.at.least(lastAt);
          lastAt = at;
        }
        const next = objects(r.text, "_:next0", `${TREE}node`)[0] as string | undefined;
        if (next) {
          expect(members.length).to.equal(100);
          const after = objects(r.text, "_:next0", `${TREE}value`)[0];
          expect(Date.parse(after.slice(1, after.indexOf('"', 1)))).to.equal(lastAt);
        }
        part = next;
        parts++;
      }
      if (parts > 1) chained++;
    }
    expect(chained, "a page of the seed is cut into parts").to.be.at.least(1);
    expect((await get(app.url, "/ldes/pages/2020-01-01T00:00:00Z/1", auth)).status).to.equal(400);
  });

  it("sends credentialed documents private, varying by the credential; open pages short-lived", async () => {
    const [first] = await firstParts();
    const closed = await get(app.url, pathOf(first), auth);
    expect(closed.headers["cache-control"]).to.equal("private, max-age=31536000, immutable");
    expect(closed.headers.vary).to.match(/\bAuthorization\b/);
    expect(closed.headers.vary).to.match(/\bX-API-Key\b/);
    const view = await get(app.url, "/ldes/view", auth);
    expect(view.headers["cache-control"]).to.equal("private, max-age=5");
    expect((await get(app.url, pathOf(first), { Accept: "text/turtle" })).status).to.equal(401);
  });
});
