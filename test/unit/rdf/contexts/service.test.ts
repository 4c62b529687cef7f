import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import type { CompiledContext } from "../../../../src/rdf/contexts/compiled-context";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import { CORE_CONTEXT_URL } from "../../../../src/rdf/contexts/core";
import type { ContextDocument } from "../../../../src/rdf/contexts/document";
import { ContextService, canonicalKey } from "../../../../src/rdf/contexts/service";

function stubCompile(calls: object[][]) {
  return (contexts: object[]): CompiledContext => {
    calls.push(contexts);
    if (contexts.some((c) => "boom" in c)) throw new Error("cannot compile");
    return {
      key: JSON.stringify(contexts),
      expandTerm: (t) => t,
      compactIri: (i) => i,
      definition: () => undefined,
    };
  };
}

describe("rdf/context-service", () => {
  const docs: Record<string, ContextDocument> = {
    [CORE_CONTEXT_URL]: { "@context": { core: "urn:core" } },
    "https://ex.org/a": { "@context": { a: "urn:a" } },
  };
  let loads = 0;
  const loader = {
    load: async (url: string): Promise<ContextDocument> => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      const d = docs[url];
      if (!d) throw new AppError("LdContextNotAvailable", url);
      return d;
    },
  };

  it("compiles the core context once at start and serves it as default()", async () => {
    const calls: object[][] = [];
    const svc = new ContextService({ loader, compile: stubCompile(calls) });
    await svc.init();
    expect(svc.default().key).to.equal(JSON.stringify([{ core: "urn:core" }]));
    expect(await svc.compiled(undefined)).to.equal(svc.default());
    expect(calls).to.have.length(1);
  });

  it("caches by canonical key, shares concurrent misses, and records every use", async () => {
    const calls: object[][] = [];
    const used: string[] = [];
    const svc = new ContextService({
      loader,
      compile: stubCompile(calls),
      usage: { recordUse: (u) => used.push(u) },
    });
    const [c1, c2] = await Promise.all([
      svc.compiled("https://ex.org/a"),
      svc.compiled(["https://ex.org/a"]),
    ]);
    expect(c1).to.equal(c2);
    expect(calls).to.have.length(1);
    expect(calls[0]).to.deep.equal([{ a: "urn:a" }, { core: "urn:core" }]);
    const before = loads;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 10000; i++) await svc.compiled("https://ex.org/a");
    const perCallUs = Number(process.hrtime.bigint() - t0) / 1000 / 10000;
    expect(loads).to.equal(before);
    expect(perCallUs).to.be.lessThan(20);
    expect(used).to.have.length(10002);
    expect(canonicalKey({ a: 1 })).to.equal('json:{"a":1}');
  });

  it("turns compile failures into 400 and does not cache failures", async () => {
    const svc = new ContextService({ loader, compile: stubCompile([]) });
    for (const v of [{ boom: 1 }, "https://ex.org/missing"]) {
      let err: unknown;
      try {
        await svc.compiled(v);
      } catch (e) {
        err = e;
      }
      expect((err as AppError).kind).to.equal(
        typeof v === "string" ? "LdContextNotAvailable" : "BadRequestData",
      );
    }
  });

  it("works with the real compileContext and the shipped core context", async () => {
    const { ContextLoader } = await import("../../../../src/rdf/contexts/loader");
    const os = await import("node:os");
    const svc = new ContextService({
      loader: new ContextLoader({ dataDir: os.tmpdir() }),
      compile: compileContext,
    });
    await svc.init();
    expect(svc.default().expandTerm("location")).to.equal("https://uri.etsi.org/ngsi-ld/location");
    const c = await svc.compiled([{ speed: "https://ex.org/speed" }, CORE_CONTEXT_URL]);
    expect(c.expandTerm("speed")).to.equal("https://ex.org/speed");
  });
});
