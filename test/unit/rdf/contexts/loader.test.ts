import { expect } from "chai";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { AppError } from "../../../../src/errors";
import { CORE_CONTEXT_URL } from "../../../../src/rdf/contexts/core";
import { ContextLoader } from "../../../../src/rdf/contexts/loader";

interface Route {
  status?: number;
  body: string;
  delayMs?: number;
}

/** A context server on 127.0.0.1, random port, answering from `routes`. */
async function startServer(routes: Map<string, Route>) {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const p = req.url ?? "/";
    counts.set(p, (counts.get(p) ?? 0) + 1);
    const route = routes.get(p);
    const answer = (): void => {
      if (!route) res.writeHead(404).end("not found");
      else res.writeHead(route.status ?? 200, { "Content-Type": "application/ld+json" }).end(route.body);
    };
    if (route?.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    hits: (p: string) => counts.get(p) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected a rejection");
}

describe("rdf/context-loader", () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  const routes = new Map<string, Route>();

  before(async () => {
    server = await startServer(routes);
  });
  after(() => server.close());
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ctx-loader-"));
    routes.clear();
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("resolves every core-context URL to the shipped v1.8 file without the network", async () => {
    const loader = new ContextLoader({ dataDir, fetchFn: () => Promise.reject(new Error("no network")) });
    for (const url of [
      CORE_CONTEXT_URL,
      "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context.jsonld",
      "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.6.jsonld",
    ]) {
      const { document, source } = await loader.loadWithSource(url);
      const ctx = document["@context"] as Record<string, unknown>;
      expect(ctx["ngsi-ld"]).to.equal("https://uri.etsi.org/ngsi-ld/");
      expect(source).to.equal("project");
    }
    const etsi = await loader.load(
      "https://forge.etsi.org/rep/cim/ngsi-ld-test-suite/-/raw/develop/resources/jsonld-contexts/ngsi-ld-test-suite.jsonld",
    );
    expect(etsi).to.have.property("@context");
  });

  it("uses the preload folder (index.json format) before the network", async () => {
    const preloadDir = path.join(dataDir, "preload");
    fs.mkdirSync(path.join(preloadDir, "sub"), { recursive: true });
    fs.writeFileSync(
      path.join(preloadDir, "sub", "a.jsonld"),
      JSON.stringify({ "@context": { a: "urn:a" } }),
    );
    fs.writeFileSync(
      path.join(preloadDir, "index.json"),
      JSON.stringify({
        contexts: {
          "https://example.org/a.jsonld": "sub/a.jsonld",
          "https://mirror.example/*": "sub/a.jsonld",
        },
      }),
    );
    const loader = new ContextLoader({
      dataDir,
      preloadDir,
      fetchFn: () => Promise.reject(new Error("no network")),
    });
    expect(await loader.loadWithSource("https://example.org/a.jsonld")).to.deep.equal({
      document: { "@context": { a: "urn:a" } },
      source: "preload",
    });
    expect((await loader.load("https://mirror.example/x/y.jsonld"))["@context"]).to.deep.equal({
      a: "urn:a",
    });
  });

  it("fetches over http, then serves from memory and, for a new loader, from the disk cache", async () => {
    routes.set("/ctx.jsonld", { body: JSON.stringify({ "@context": { b: "urn:b" } }) });
    const url = server.url("/ctx.jsonld");
    const first = new ContextLoader({ dataDir });
    expect(await first.loadWithSource(url)).to.deep.equal({
      document: { "@context": { b: "urn:b" } },
      source: "network",
    });
    await first.load(url);
    expect(server.hits("/ctx.jsonld")).to.equal(1);
    const files = fs.readdirSync(path.join(dataDir, "context-cache"));
    expect(files).to.have.length(1);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, "context-cache", files[0]), "utf8")).url).to.equal(
      url,
    );

    routes.delete("/ctx.jsonld");
    const second = new ContextLoader({ dataDir });
    expect(await second.loadWithSource(url)).to.deep.equal({
      document: { "@context": { b: "urn:b" } },
      source: "disk",
    });
    expect(server.hits("/ctx.jsonld")).to.equal(1);
  });

  it("shares one fetch between concurrent loads of the same URL", async () => {
    routes.set("/slow.jsonld", { body: JSON.stringify({ "@context": { s: "urn:s" } }), delayMs: 100 });
    const loader = new ContextLoader({ dataDir });
    const docs = await Promise.all([1, 2, 3, 4, 5].map(() => loader.load(server.url("/slow.jsonld"))));
    expect(server.hits("/slow.jsonld")).to.equal(1);
    for (const d of docs) expect(d).to.equal(docs[0]);
  });

  it("fails fast with 503 LdContextNotAvailable on a timeout", async () => {
    routes.set("/hang.jsonld", { body: "{}", delayMs: 5000 });
    const loader = new ContextLoader({ dataDir, timeoutMs: 300 });
    const t0 = Date.now();
    const err = await rejection(loader.load(server.url("/hang.jsonld")));
    expect(Date.now() - t0).to.be.lessThan(300 + 200);
    expect(err.kind).to.equal("LdContextNotAvailable");
    expect(err.status).to.equal(503);
  });

  it("503 for unreachable hosts, non-2xx answers and bodies over the size limit", async () => {
    const loader = new ContextLoader({ dataDir, maxBytes: 1000 });
    routes.set("/big.jsonld", { body: JSON.stringify({ "@context": { x: "y".repeat(5000) } }) });
    routes.set("/gone.jsonld", { status: 500, body: "boom" });
    for (const url of [
      server.url("/big.jsonld"),
      server.url("/gone.jsonld"),
      server.url("/missing"),
      "http://127.0.0.1:1/x",
    ]) {
      const err = await rejection(loader.load(url));
      expect(err.kind, url).to.equal("LdContextNotAvailable");
    }
  });

  it("503 LdContextNotAvailable, the text of any failed download, for invalid JSON or a document without @context", async () => {
    const loader = new ContextLoader({ dataDir });
    routes.set("/bad.jsonld", { body: "{not json" });
    routes.set("/plain.json", { body: JSON.stringify({ a: 1 }) });
    for (const url of [server.url("/bad.jsonld"), server.url("/plain.json")]) {
      const err = await rejection(loader.load(url));
      expect(err.kind, url).to.equal("LdContextNotAvailable");
      expect(err.message).to.equal(`The @context ${url} could not be retrieved`);
    }
  });

  it("400 BadRequestData for non-http URLs", async () => {
    const err = await rejection(new ContextLoader({ dataDir }).load("ftp://example.org/c.jsonld"));
    expect(err.kind).to.equal("BadRequestData");
    expect(err.status).to.equal(400);
  });

  it("reload keeps the old copy on failure; evict forgets memory and disk", async () => {
    routes.set("/r.jsonld", { body: JSON.stringify({ "@context": { v: "urn:1" } }) });
    const url = server.url("/r.jsonld");
    const loader = new ContextLoader({ dataDir });
    await loader.load(url);
    routes.set("/r.jsonld", { body: JSON.stringify({ "@context": { v: "urn:2" } }) });
    expect((await loader.reload(url))["@context"]).to.deep.equal({ v: "urn:2" });
    expect((await loader.load(url))["@context"]).to.deep.equal({ v: "urn:2" });
    routes.delete("/r.jsonld");
    expect((await rejection(loader.reload(url))).kind).to.equal("LdContextNotAvailable");
    expect((await loader.load(url))["@context"]).to.deep.equal({ v: "urn:2" });
    await loader.evict(url);
    expect((await rejection(loader.load(url))).kind).to.equal("LdContextNotAvailable");
  });
});
