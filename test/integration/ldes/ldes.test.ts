import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const TREE_MEMBER = "<https://w3id.org/tree#member>";
const IS_VERSION_OF = "http://purl.org/dc/terms/isVersionOf";
const NOTE = "https://w3id.org/citygraph/traffic#note";
const FORMATS = ["text/turtle", "application/n-triples", "application/n-quads", "application/ld+json"];

/** The pages the view links, in order. */
async function pagesOf(base: string): Promise<string[]> {
  const view = await http(base, "GET", "/ldes/view", undefined, { Accept: "application/n-triples" });
  expect(view.status).to.equal(200);
  const pages = [...view.text.matchAll(/<https:\/\/w3id\.org\/tree#node> <([^>]+)>/g)].map((m) => m[1]);
  return [...new Set(pages)].sort();
}

/** The member IRIs of every page and of each page's further parts, as the service lists them. */
async function membersOf(base: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const page of await pagesOf(base)) {
    let part: string | undefined = page;
    while (part) {
      const r = await http(base, "GET", new URL(part).pathname, undefined, {
        Accept: "application/n-triples",
      });
      for (const line of r.text.split("\n"))
        if (line.includes(TREE_MEMBER)) out.add(line.slice(line.lastIndexOf("<") + 1, line.lastIndexOf(">")));
      part = /^_:next0 <https:\/\/w3id\.org\/tree#node> <([^>]+)>/m.exec(r.text)?.[1];
    }
  }
  return out;
}

/** ldes-client's ES module (its CommonJS build does not load: winston's default export is not bridged). */
type LdesClientModule = typeof import("ldes-client");
const importEsm = new Function("s", "return import(s)") as (s: string) => Promise<LdesClientModule>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("LDES: the seeded city replicated and followed by ldes-client", function () {
  this.timeout(120_000);
  let app: TestApp;
  const env = { SEED: "on", LDES_PAGE: "2s", LDES_MAX_AGE: "1" };

  before(async () => {
    app = await startTestApp(env);
  });
  after(async () => app?.destroy());

  it("a client replicates the stream from empty, then receives the version a PATCH makes", async () => {
    const { intoConfig, replicateLDES } = await importEsm("ldes-client");
    const expected = await membersOf(app.url);
    expect(expected.size).to.be.greaterThan(500); // one version per seeded entity at least
    const client = replicateLDES(
      intoConfig({ url: `${app.url}/ldes`, polling: true, pollInterval: 500, noShape: true }),
    );
    const seen = new Map<string, { isVersionOf?: string; timestamp?: unknown }>();
    const newest = new Map<string, string>(); // member -> the objects of its quads
    const reader = client.stream({ highWaterMark: 10 }).getReader();
    const readUntil = async (done: () => boolean, ms: number): Promise<void> => {
      const until = Date.now() + ms;
      while (!done()) {
        if (Date.now() > until) throw new Error(`not there after ${ms} ms (${seen.size} members)`);
        const next = await reader.read();
        if (next.done) throw new Error("the client ended its stream");
        seen.set(next.value.id.value, {
          isVersionOf: next.value.isVersionOf,
          timestamp: next.value.timestamp,
        });
        newest.set(next.value.id.value, next.value.quads.map((q) => q.object.value).join(" "));
      }
    };
    try {
      await readUntil(() => [...expected].every((m) => seen.has(m)), 60_000);
      expect([...seen.keys()].filter((m) => !expected.has(m))).to.deep.equal([]);
      const some = seen.get([...expected][0])!;
      expect(some.isVersionOf).to.equal([...expected][0].split("#")[0]);

      const camera = [...expected].find((m) => m.includes(":TrafficCamera:"))!;
      const entityId = camera.split("#")[0];
      const patched = Date.now();
      const r = await http(app.url, "PATCH", `/ngsi-ld/v1/entities/${encodeURIComponent(entityId)}`, {
        [NOTE]: { type: "Property", value: 4242 },
      });
      expect(r.status).to.equal(204);
      // within two refreshes of the open page (max-age 1 s, client poll 0.5 s) and a page's grace
      const isNew = ([m, v]: [string, { isVersionOf?: string }]) =>
        v.isVersionOf === entityId && Date.parse(m.split("#")[1]) >= patched - 1000;
      await readUntil(() => [...seen].some(isNew), 8_000);
      const [iri] = [...seen].find(isNew)!;
      expect(newest.get(iri)).to.contain("4242"); // the member holds the patched value
    } finally {
      await client.close();
      reader.releaseLock();
    }
  });

  it("closed pages are immutable: same bytes and ETags after a restart, 304 on If-None-Match", async () => {
    await sleep(4_500); // the seed's pages close (2 s page + 2 s grace)
    const pages = await pagesOf(app.url);
    const before = new Map<string, { body: string; etag: string }>();
    for (const page of pages) {
      for (const accept of FORMATS) {
        const r = await http(app.url, "GET", new URL(page).pathname, undefined, { Accept: accept });
        expect(r.status).to.equal(200);
        if (!/immutable/.test(r.headers.get("cache-control") ?? "")) continue; // the open page
        expect(r.headers.get("cache-control")).to.match(/^public, max-age=\d+, immutable$/);
        expect(r.headers.get("content-type")).to.contain(accept);
        before.set(`${page} ${accept}`, { body: r.text, etag: r.headers.get("etag")! });
      }
    }
    expect(before.size).to.be.at.least(3);
    const { dataDir } = app;
    const port = new URL(app.url).port;
    await app.close();
    app = await startTestApp({ ...env, PORT: port }, dataDir);
    for (const [key, was] of before) {
      const [page, accept] = key.split(" ");
      const r = await http(app.url, "GET", new URL(page).pathname, undefined, { Accept: accept });
      expect(r.text, key).to.equal(was.body);
      expect(r.headers.get("etag"), key).to.equal(was.etag);
      const again = await http(app.url, "GET", new URL(page).pathname, undefined, {
        Accept: accept,
        "If-None-Match": was.etag,
        "Cache-Control": "max-age=0", // else fetch sends no-cache, which asks for the whole body
      });
      expect(again.status).to.equal(304);
    }
    const jsonld = [...before].find(([k]) => k.endsWith("application/ld+json"))!;
    const nodes = JSON.parse(jsonld[1].body) as Record<string, unknown>[];
    expect(nodes.some((n) => Array.isArray(n[IS_VERSION_OF]))).to.equal(true);
  });

  it("describes the stream and its view; bad inputs are 4xx", async () => {
    const s = await http(app.url, "GET", "/ldes", undefined, { Accept: "text/turtle" });
    expect(s.text).to.contain("<https://w3id.org/ldes#EventStream>");
    expect(s.text).to.contain(
      "<https://w3id.org/ldes#timestampPath> <https://uri.etsi.org/ngsi-ld/modifiedAt>",
    );
    expect(s.text).to.contain(`<https://w3id.org/ldes#versionOfPath> <${IS_VERSION_OF}>`);
    const v = await http(app.url, "GET", "/ldes/view", undefined, { Accept: "text/turtle" });
    expect(v.text).to.contain("<https://w3id.org/tree#GreaterThanOrEqualToRelation>");
    expect(v.text).to.contain("<https://w3id.org/tree#LessThanRelation>");
    expect(v.text).to.contain("<https://w3id.org/tree#viewDescription>");
    expect(v.headers.get("cache-control")).to.equal("public, max-age=1");
    const [page] = await pagesOf(app.url);
    const plain = await http(app.url, "GET", new URL(page).pathname, undefined, {
      "Accept-Encoding": "identity",
    });
    const zipped = await http(app.url, "GET", new URL(page).pathname, undefined, {
      "Accept-Encoding": "gzip",
    });
    expect(plain.headers.get("content-encoding")).to.equal(null);
    expect(zipped.headers.get("content-encoding")).to.equal("gzip");
    expect(zipped.text).to.equal(plain.text); // fetch decodes it
    expect(zipped.headers.get("etag")).to.equal(plain.headers.get("etag")!.replace(/"$/, '-gzip"'));
    expect((await http(app.url, "GET", "/ldes/pages/yesterday")).status).to.equal(400);
    expect((await http(app.url, "GET", "/ldes/pages/2020-01-01T00:00:01Z")).status).to.equal(404);
    expect((await http(app.url, "GET", "/ldes/view", undefined, { Accept: "image/png" })).status).to.equal(
      406,
    );
    expect(
      (await http(app.url, "GET", "/ldes", undefined, { "NGSILD-Tenant": "bad name!" })).status,
    ).to.equal(400);
    const other = await http(app.url, "GET", "/ldes/view", undefined, {
      Accept: "application/n-triples",
      "NGSILD-Tenant": "nobody",
    });
    expect(other.text).not.to.contain("tree#relation");
  });
});
