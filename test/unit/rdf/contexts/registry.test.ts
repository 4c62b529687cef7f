import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Headers, Response } from "node-fetch";
import { AppError } from "../../../../src/errors";
import { CORE_CONTEXT_URL } from "../../../../src/rdf/contexts/core";
import type { ContextInfo } from "../../../../src/rdf/contexts/info";
import { ContextLoader } from "../../../../src/rdf/contexts/loader";
import { ContextRegistry } from "../../../../src/rdf/contexts/registry";
import { ContextService } from "../../../../src/rdf/contexts/service";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";

const ORIGIN = "http://broker:1026";
const REMOTE = "http://ctx.example/remote.jsonld";

async function error(p: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected an error");
}

describe("rdf/context-registry (ETSI GS CIM 009 §5.13)", () => {
  let dataDir: string;
  let online: boolean;
  let build: () => Promise<{ registry: ContextRegistry; service: ContextService }>;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ctx-registry-"));
    online = true;
    const fetchFn = async (url: string) => {
      if (!online || url !== REMOTE) throw new Error("connect ECONNREFUSED");
      return new Response(JSON.stringify({ "@context": { remoteTerm: "urn:remote" } }), {
        status: 200,
        headers: new Headers({ "content-type": "application/ld+json" }),
      });
    };
    build = async () => {
      const loader = new ContextLoader({ dataDir, fetchFn });
      const registry = new ContextRegistry({ dataDir, loader });
      const service = new ContextService({ loader, compile: compileContext, usage: registry });
      registry.onChange(() => service.clear());
      await registry.init();
      await service.init();
      return { registry, service };
    };
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("adds a Hosted @context, serves it by localId and URL, resolves its URL locally, counts hits", async () => {
    const { registry, service } = await build();
    const { localId, location } = await registry.addHosted("", {
      "@context": { A1: "urn:ngsi-ld:attributes:A1" },
    });
    expect(location).to.equal(`/ngsi-ld/v1/jsonldContexts/${localId}`);
    expect(registry.serve("", localId, { details: false, origin: ORIGIN })).to.deep.equal({
      "@context": { A1: "urn:ngsi-ld:attributes:A1" },
    });
    const info = registry.serve("", `${ORIGIN}${location}`, { details: true, origin: ORIGIN }) as ContextInfo;
    expect(info).to.include({ URL: `${ORIGIN}${location}`, localId, kind: "Hosted", numberOfHits: 0 });
    expect(Number.isNaN(Date.parse(info.createdAt))).to.equal(false);

    const compiled = await service.compiled(
      `http://any-host/ngsi-ld/v1/ngsi-ld/v1/jsonldContexts/${localId}`,
    );
    expect(compiled.expandTerm("A1")).to.equal("urn:ngsi-ld:attributes:A1");
    const after = registry.serve("", localId, { details: true, origin: ORIGIN }) as ContextInfo;
    expect(after.numberOfHits).to.equal(1);
    expect(after.lastUsage).to.be.a("string");
  });

  it("lists URLs or details, filtered by kind; Cached entries appear when used", async () => {
    const { registry, service } = await build();
    const { localId } = await registry.addHosted("", { "@context": [REMOTE] });
    await service.compiled(`${ORIGIN}/ngsi-ld/v1/jsonldContexts/${localId}`, "");
    const urls = registry.list("", { details: false, origin: ORIGIN }) as string[];
    expect(registry.list("other", { details: false, origin: ORIGIN })).to.not.include(REMOTE);
    expect(urls).to.have.members([
      `${ORIGIN}/ngsi-ld/v1/jsonldContexts/${localId}`,
      REMOTE,
      CORE_CONTEXT_URL,
    ]);
    const hosted = registry.list("", { kind: "Hosted", details: true, origin: ORIGIN }) as ContextInfo[];
    expect(hosted.map((i) => i.localId)).to.deep.equal([localId]);
    const cached = registry.list("", { kind: "Cached", details: true, origin: ORIGIN }) as ContextInfo[];
    const remote = cached.find((i) => i.URL === REMOTE);
    expect(remote).to.include({ kind: "Cached", numberOfHits: 1 });
    expect(remote?.extraInfo).to.deep.equal({ origin: "downloaded" });
    expect(registry.list("", { kind: "ImplicitlyCreated", details: false, origin: ORIGIN })).to.deep.equal(
      [],
    );
    expect(registry.list("other", { kind: "Hosted", details: false, origin: ORIGIN })).to.deep.equal([]);
  });

  it("refuses a body without @context (InvalidRequest) and a bad @context value (BadRequestData)", async () => {
    const { registry } = await build();
    expect((await error(registry.addHosted("", { A1: "urn:a" }))).kind).to.equal("InvalidRequest");
    expect((await error(registry.addHosted("", [1]))).kind).to.equal("InvalidRequest");
    expect((await error(registry.addHosted("", { "@context": 5 }))).kind).to.equal("BadRequestData");
    expect((await error(registry.addHosted("", { "@context": ["relative"] }))).kind).to.equal(
      "BadRequestData",
    );
  });

  it("does not serve Cached content without details (OperationNotSupported) and 404s unknown ids", async () => {
    const { registry } = await build();
    expect(
      (await error(() => registry.serve("", CORE_CONTEXT_URL, { details: false, origin: ORIGIN }))).kind,
    ).to.equal("OperationNotSupported");
    const core = registry.serve("", "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.6.jsonld", {
      details: true,
      origin: ORIGIN,
    });
    expect(core).to.include({ URL: CORE_CONTEXT_URL, kind: "Cached" });
    expect(
      (await error(() => registry.serve("", "wrong_id", { details: true, origin: ORIGIN }))).kind,
    ).to.equal("ResourceNotFound");
  });

  it("keeps tenants apart", async () => {
    const { registry } = await build();
    const { localId } = await registry.addHosted("a", { "@context": { T: "urn:t" } });
    expect(
      (await error(() => registry.serve("b", localId, { details: false, origin: ORIGIN }))).kind,
    ).to.equal("ResourceNotFound");
    expect((await error(registry.remove("b", localId, { reload: false }))).kind).to.equal("ResourceNotFound");
    await registry.remove("a", localId, { reload: false });
    expect(
      (await error(() => registry.serve("a", localId, { details: false, origin: ORIGIN }))).kind,
    ).to.equal("ResourceNotFound");
  });

  it("deletes, reloads Cached ones, refuses reload of others and deletion of the core", async () => {
    const { registry, service } = await build();
    await service.compiled(REMOTE, "");
    const { localId } = await registry.addHosted("", { "@context": { H: "urn:h" } });
    expect((await error(registry.remove("", localId, { reload: true }))).kind).to.equal("BadRequestData");
    expect((await error(registry.remove("", "wrong_id", { reload: true }))).kind).to.equal("BadRequestData");
    expect((await error(registry.remove("", "wrong_id", { reload: false }))).kind).to.equal(
      "ResourceNotFound",
    );
    const core = await error(
      registry.remove("", "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.6.jsonld", {
        reload: false,
      }),
    );
    expect(core.kind).to.equal("BadRequestData");
    await registry.remove("", CORE_CONTEXT_URL, { reload: true });

    await registry.remove("", REMOTE, { reload: true });
    online = false;
    const failed = await error(registry.remove("", REMOTE, { reload: true }));
    expect(failed.kind).to.equal("LdContextNotAvailable");
    expect(registry.serve("", REMOTE, { details: true, origin: ORIGIN })).to.include({ kind: "Cached" });
    await registry.remove("", REMOTE, { reload: false });
    expect((await error(() => registry.serve("", REMOTE, { details: true, origin: ORIGIN }))).kind).to.equal(
      "ResourceNotFound",
    );
    expect((await error(service.compiled(REMOTE))).kind).to.equal("LdContextNotAvailable");
  });

  it("persists Hosted and ImplicitlyCreated contexts across a new registry", async () => {
    const first = await build();
    const hosted = await first.registry.addHosted("t1", { "@context": { P: "urn:p" } });
    const implicit = await first.registry.addImplicit("t1", ["https://ex.org/a", { q: "urn:q" }]);
    const second = await build();
    expect(second.registry.serve("t1", hosted.localId, { details: false, origin: ORIGIN })).to.deep.equal({
      "@context": { P: "urn:p" },
    });
    const info = second.registry.serve("t1", implicit.localId, {
      details: true,
      origin: ORIGIN,
    }) as ContextInfo;
    expect(info.kind).to.equal("ImplicitlyCreated");
    const c = await second.service.compiled(`${ORIGIN}${hosted.location}`);
    expect(c.expandTerm("P")).to.equal("urn:p");
  });
});
