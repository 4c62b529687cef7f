import Router from "@koa/router";
import { expect } from "chai";
import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Koa from "koa";
import fetch from "node-fetch";
import { registerJsonLdContextRoutes } from "../../../src/api/ngsi-ld/jsonld-contexts-routes";
import { AppError, PROBLEM_TYPE_BASE } from "../../../src/errors";
import { CORE_CONTEXT_URL } from "../../../src/rdf/contexts/core";
import { ContextLoader } from "../../../src/rdf/contexts/loader";
import { ContextRegistry } from "../../../src/rdf/contexts/registry";

/** Only this feature's routes, on a small Koa app of its own (app.ts is built elsewhere). */
describe("NGSI-LD /jsonldContexts over HTTP (ETSI GS CIM 009 §5.13, §6.31-6.32)", () => {
  let dataDir: string;
  let server: Server;
  let base: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ctx-routes-"));
    const loader = new ContextLoader({ dataDir, fetchFn: () => Promise.reject(new Error("offline")) });
    const registry = new ContextRegistry({ dataDir, loader });
    await registry.init();
    const app = new Koa();
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        const e = err instanceof AppError ? err : new AppError("InternalError", "x");
        ctx.status = e.status;
        ctx.body = { type: `${PROBLEM_TYPE_BASE}${e.kind}`, title: e.message };
      }
    });
    app.use(async (ctx, next) => {
      if (ctx.method === "POST") {
        let text = "";
        for await (const chunk of ctx.req) text += chunk;
        ctx.state.body = JSON.parse(text);
      }
      await next();
    });
    const router = new Router({ prefix: "/ngsi-ld/v1" });
    registerJsonLdContextRoutes(router, registry);
    app.use(router.routes());
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ngsi-ld/v1`;
  });
  after(() => {
    server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("adds, lists, serves and deletes a Hosted @context", async () => {
    const body = { "@context": { A1: "urn:ngsi-ld:attributes:A1" } };
    const add = await fetch(`${base}/jsonldContexts`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json" },
    });
    expect(add.status).to.equal(201);
    expect(await add.text()).to.equal("");
    const location = add.headers.get("location") ?? "";
    expect(location).to.match(/^\/ngsi-ld\/v1\/jsonldContexts\/[0-9a-f-]{36}$/);
    const localId = location.split("/").pop() ?? "";

    const list = await fetch(`${base}/jsonldContexts?kind=Hosted`);
    const urls = (await list.json()) as string[];
    expect(urls).to.have.length(1);
    expect(urls[0].endsWith(location)).to.equal(true);
    // the URL names this server (scheme and Host), whatever Origin header the client sends, or none
    const server = new URL(base).origin;
    expect(urls[0]).to.equal(`${server}${location}`);
    for (const headers of [{}, { Origin: "http://elsewhere.example" }] as Record<string, string>[]) {
      const detailed = await fetch(`${base}/jsonldContexts?details=true&kind=Hosted`, { headers });
      const [info] = (await detailed.json()) as { URL: string }[];
      expect(info.URL).to.equal(`${server}${location}`);
    }

    const serve = await fetch(`${base}/jsonldContexts/${localId}`);
    expect(serve.status).to.equal(200);
    expect(serve.headers.get("content-type")).to.match(/^application\/json/);
    expect(await serve.json()).to.deep.equal(body);

    const details = await fetch(`${base}/jsonldContexts/${encodeURIComponent(urls[0])}?details=true`);
    expect(await details.json()).to.include({ localId, kind: "Hosted", URL: urls[0] });

    expect((await fetch(`${base}/jsonldContexts/${localId}`, { method: "DELETE" })).status).to.equal(204);
    expect((await fetch(`${base}/jsonldContexts/${localId}`)).status).to.equal(404);
  });

  it("answers the ETSI error cases", async () => {
    const core = encodeURIComponent("https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.6.jsonld");
    const cases: Array<[string, string, number, string]> = [
      ["GET", "/jsonldContexts?kind=other", 400, "BadRequestData"],
      ["GET", "/jsonldContexts?details=other", 400, "BadRequestData"],
      ["GET", "/jsonldContexts/wrong_id_context?details=true", 404, "ResourceNotFound"],
      ["GET", `/jsonldContexts/${core}`, 422, "OperationNotSupported"],
      ["DELETE", "/jsonldContexts/wrong_id_context?reload=true", 400, "BadRequestData"],
      ["DELETE", "/jsonldContexts/wrong_id_context?reload=xxx", 400, "BadRequestData"],
      ["DELETE", "/jsonldContexts/wrong_id_context", 404, "ResourceNotFound"],
      ["DELETE", `/jsonldContexts/${core}`, 400, "BadRequestData"],
    ];
    for (const [method, p, status, kind] of cases) {
      const res = await fetch(`${base}${p}`, { method });
      expect(res.status, `${method} ${p}`).to.equal(status);
      expect(((await res.json()) as { type: string }).type).to.equal(`${PROBLEM_TYPE_BASE}${kind}`);
    }
    const bad = await fetch(`${base}/jsonldContexts`, {
      method: "POST",
      body: JSON.stringify({ A1: "urn:x" }),
    });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { type: string }).type).to.equal(`${PROBLEM_TYPE_BASE}InvalidRequest`);
    expect((await fetch(`${base}/jsonldContexts/${core}?reload=true`, { method: "DELETE" })).status).to.equal(
      204,
    );
    const info = await fetch(`${base}/jsonldContexts/${encodeURIComponent(CORE_CONTEXT_URL)}?details=true`);
    expect(await info.json()).to.include({ kind: "Cached", URL: CORE_CONTEXT_URL });
  });
});
