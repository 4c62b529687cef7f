import { expect } from "chai";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as call, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";

const V1 = "/ngsi-ld/v1";
const CTX = `${V1}/jsonldContexts`;
const SUBS = `${V1}/subscriptions`;
const LD = { "Content-Type": "application/ld+json" };
const TRAFFIC = "https://w3id.org/citygraph/contexts/traffic.jsonld";

interface Info {
  URL: string;
  localId: string;
  kind: string;
  numberOfHits: number;
}

/**
 * The three kinds of stored @contexts over the whole app (ETSI GS CIM 009 v1.8 §5.13): ImplicitlyCreated
 * ones made for subscriptions, the Cached copies of the URLs a Hosted @context names, and a Hosted
 * @context named by its Location path.
 */
describe("NGSI-LD @context kinds through the app (ETSI GS CIM 009 v1.8 §5.13)", function () {
  this.timeout(60_000);
  let app: TestApp;
  let ctxServer: http.Server;
  let ctxBase: string;

  const subscription = (id: string, context: unknown, extra: Record<string, unknown> = {}) => ({
    id,
    type: "Subscription",
    entities: [{ type: "Camera" }],
    notification: { endpoint: { uri: "http://127.0.0.1:9/hook" } },
    ...extra,
    "@context": context,
  });
  const details = async (id: string, tenant?: string) => {
    const headers: Record<string, string> = tenant ? { "NGSILD-Tenant": tenant } : {};
    const r = await call(app.url, "GET", `${CTX}/${encodeURIComponent(id)}?details=true`, undefined, headers);
    return { status: r.status, info: r.body as Info };
  };
  const jsonldContextOf = async (subId: string) =>
    ((await call(app.url, "GET", `${SUBS}/${subId}`)).body as { jsonldContext?: string }).jsonldContext;

  before(async () => {
    ctxServer = http.createServer((req, res) => {
      res.setHeader("Content-Type", "application/ld+json");
      res.end(
        JSON.stringify({ "@context": { speedLimit: `urn:test:${req.url?.slice(1) ?? ""}:speedLimit` } }),
      );
    });
    ctxServer.listen(0, "127.0.0.1");
    await new Promise((r) => ctxServer.once("listening", r));
    ctxBase = `http://127.0.0.1:${(ctxServer.address() as AddressInfo).port}`;
    app = await startTestApp({ CONTEXT_FETCH_TIMEOUT_MS: "1000" });
  });
  after(async () => {
    await app?.destroy();
    ctxServer.close();
  });

  it("makes an ImplicitlyCreated @context for a subscription made with an array or object @context", async () => {
    const array = [TRAFFIC, TEST_CONTEXT];
    const created = await call(
      app.url,
      "POST",
      SUBS,
      subscription("urn:ngsi-ld:Subscription:ic1", array),
      LD,
    );
    expect(created.status).to.equal(201);
    const url = await jsonldContextOf("urn:ngsi-ld:Subscription:ic1");
    expect(url).to.match(new RegExp(`^${app.url}${CTX}/[0-9a-f-]{36}$`));
    const localId = (url as string).split("/").pop() as string;

    const listed = (await call(app.url, "GET", `${CTX}?kind=ImplicitlyCreated`)).body as string[];
    expect(listed).to.deep.equal([url]);
    const served = await call(app.url, "GET", `${CTX}/${localId}`);
    expect(served.status).to.equal(200);
    expect(served.body).to.deep.equal({ "@context": array });
    const first = await details(localId);
    expect(first.info).to.include({ URL: url, localId, kind: "ImplicitlyCreated" });

    // an object @context gets one too; a single URL or an explicit jsonldContext needs none
    const obj = { speed: "urn:test:speed" };
    await call(app.url, "POST", SUBS, subscription("urn:ngsi-ld:Subscription:ic2", obj), LD);
    const objUrl = await jsonldContextOf("urn:ngsi-ld:Subscription:ic2");
    expect(objUrl).to.be.a("string").and.not.equal(url);
    expect((await call(app.url, "GET", `${CTX}/${objUrl?.split("/").pop()}`)).body).to.deep.equal({
      "@context": obj,
    });
    await call(app.url, "POST", SUBS, subscription("urn:ngsi-ld:Subscription:ic3", TRAFFIC), LD);
    expect(await jsonldContextOf("urn:ngsi-ld:Subscription:ic3")).to.equal(undefined);
    await call(
      app.url,
      "POST",
      SUBS,
      subscription("urn:ngsi-ld:Subscription:ic4", array, { jsonldContext: TRAFFIC }),
      LD,
    );
    expect(await jsonldContextOf("urn:ngsi-ld:Subscription:ic4")).to.equal(TRAFFIC);
    expect((await call(app.url, "GET", `${CTX}?kind=ImplicitlyCreated`)).body).to.have.length(2);
    // another tenant does not see them
    const other = await call(app.url, "GET", `${CTX}?kind=ImplicitlyCreated`, undefined, {
      "NGSILD-Tenant": "elsewhere",
    });
    expect(other.body).to.deep.equal([]);

    // the URL works as the @context of a request, and counts as a use of it
    const entity = await call(
      app.url,
      "POST",
      `${V1}/entities`,
      { id: "urn:ngsi-ld:Camera:ic", type: "Camera", "@context": url },
      LD,
    );
    expect(entity.status).to.equal(201);
    expect((await details(localId)).info.numberOfHits).to.equal(first.info.numberOfHits + 2);

    // reload is for Cached @contexts only; the subscription's own deletion takes its @context along
    const reload = await call(app.url, "DELETE", `${CTX}/${localId}?reload=true`);
    expect(reload.status).to.equal(400);
    expect(await call(app.url, "DELETE", `${SUBS}/urn:ngsi-ld:Subscription:ic1`)).to.include({ status: 204 });
    expect((await details(localId)).status).to.equal(404);
    for (const id of ["ic2", "ic3", "ic4"])
      await call(app.url, "DELETE", `${SUBS}/urn:ngsi-ld:Subscription:${id}`);
    expect((await call(app.url, "GET", `${CTX}?kind=ImplicitlyCreated`)).body).to.deep.equal([]);
  });

  it("lets a client delete an ImplicitlyCreated @context; its subscription stays, across a restart too", async () => {
    const array = [TRAFFIC, TEST_CONTEXT];
    await call(app.url, "POST", SUBS, subscription("urn:ngsi-ld:Subscription:ic5", array), LD);
    const url = (await jsonldContextOf("urn:ngsi-ld:Subscription:ic5")) as string;
    expect((await call(app.url, "DELETE", `${CTX}/${url.split("/").pop()}`)).status).to.equal(204);
    expect((await call(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:ic5`)).status).to.equal(200);

    await app.close();
    app = await startTestApp({ CONTEXT_FETCH_TIMEOUT_MS: "1000" }, app.dataDir);
    const after = await call(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:ic5`);
    expect(after.status).to.equal(200);
    await call(app.url, "DELETE", `${SUBS}/urn:ngsi-ld:Subscription:ic5`);
  });

  it("caches the URLs a Hosted @context names when it is added", async () => {
    const remote = `${ctxBase}/vocab.jsonld`;
    const unreachable = "http://127.0.0.1:9/none.jsonld";
    const added = await call(app.url, "POST", CTX, {
      "@context": [remote, unreachable, { extra: "urn:test:extra" }],
    });
    expect(added.status).to.equal(201);
    const location = added.headers.get("location") as string;
    const hosted = await details(location);
    expect(hosted.info.kind).to.equal("Hosted");
    const cached = await details(remote);
    expect(cached.status).to.equal(200);
    expect(cached.info).to.include({ URL: remote, kind: "Cached", numberOfHits: 0 });
    expect((await call(app.url, "GET", `${CTX}?kind=Cached`)).body).to.include(remote);

    // one that cannot be fetched is not listed, and a request using the Hosted @context fails on it
    expect((await details(unreachable)).status).to.equal(404);
    const use = await call(
      app.url,
      "POST",
      `${V1}/entities`,
      { id: "urn:ngsi-ld:Testing:unreachable", type: "Testing", "@context": `${app.url}${location}` },
      LD,
    );
    expect(use.status).to.equal(503);
    expect((use.body as { type: string }).type).to.match(/LdContextNotAvailable$/);
    await call(app.url, "DELETE", `${CTX}/${hosted.info.localId}`);
  });

  it("resolves the Location path of a Hosted @context from its own store and counts the use", async () => {
    const added = await call(app.url, "POST", CTX, { "@context": { A1: "urn:ngsi-ld:attributes:A1" } });
    const location = added.headers.get("location") as string;
    expect((await details(location)).info.numberOfHits).to.equal(0);
    const entity = await call(
      app.url,
      "POST",
      `${V1}/entities`,
      { id: "urn:ngsi-ld:Testing:loc", type: "Testing", A1: "value of A1", "@context": location },
      LD,
    );
    expect(entity.status).to.equal(201);
    expect((await details(location)).info.numberOfHits).to.equal(1);
    const read = await call(
      app.url,
      "GET",
      `${V1}/entities/urn:ngsi-ld:Testing:loc?options=keyValues`,
      undefined,
      {
        Link: `<${app.url}${location}>; rel="http://www.w3.org/ns/json-ld#context"`,
      },
    );
    expect(read.body).to.include({ A1: "value of A1" });

    // any other relative reference stays a bad @context
    for (const ref of [
      `${CTX}/00000000-0000-0000-0000-000000000000`,
      "ctx.jsonld",
      `//elsewhere${location}`,
    ]) {
      const bad = await call(
        app.url,
        "POST",
        `${V1}/entities`,
        { id: "urn:ngsi-ld:Testing:bad", type: "Testing", "@context": ref },
        LD,
      );
      expect(bad.status, ref).to.equal(400);
    }
    await call(app.url, "DELETE", `${V1}/entities/urn:ngsi-ld:Testing:loc`);
    await call(app.url, "DELETE", `${CTX}/${location.split("/").pop()}`);
  });

  it("lists Hosted @contexts with this server's absolute URL, whatever the Origin header says", async () => {
    const added = await call(app.url, "POST", CTX, { "@context": { A2: "urn:ngsi-ld:attributes:A2" } });
    const location = added.headers.get("location") as string;
    for (const headers of [{}, { Origin: "http://elsewhere.example" }, { Origin: "null" }] as Record<
      string,
      string
    >[]) {
      const list = (await call(app.url, "GET", `${CTX}?details=true&kind=Hosted`, undefined, headers))
        .body as Info[];
      expect(list.map((i) => i.URL)).to.include(`${app.url}${location}`);
    }
    await call(app.url, "DELETE", `${CTX}/${location.split("/").pop()}`);
  });
});
