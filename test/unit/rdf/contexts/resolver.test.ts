import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { CORE_CONTEXT_URL } from "../../../../src/rdf/contexts/core";
import type { ContextDocument } from "../../../../src/rdf/contexts/document";
import { parseContextLink } from "../../../../src/rdf/contexts/link";
import { resolveContext } from "../../../../src/rdf/contexts/resolver";

const CORE = { "@version": 1.1, core: "urn:core" };
const DOCS: Record<string, ContextDocument> = {
  [CORE_CONTEXT_URL]: { "@context": CORE },
  "https://ex.org/a": { "@context": { a: "urn:a" } },
  "https://ex.org/b": { "@context": ["https://ex.org/a", { b: "urn:b" }] },
  "https://ex.org/withcore": {
    "@context": [{ w: "urn:w" }, "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.6.jsonld"],
  },
  "https://ex.org/loop1": { "@context": "https://ex.org/loop2" },
  "https://ex.org/loop2": { "@context": ["https://ex.org/loop1"] },
  "https://ex.org/reset": { "@context": [null, { r: "urn:r" }] },
};
const loads: string[] = [];
const loader = {
  load: async (url: string): Promise<ContextDocument> => {
    loads.push(url);
    const d = DOCS[url];
    if (!d) throw new AppError("LdContextNotAvailable", `no ${url}`);
    return d;
  },
};

async function error(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected a rejection");
}

describe("rdf/context-resolver", () => {
  it("gives the core context alone for no @context", async () => {
    expect(await resolveContext(undefined, loader)).to.deep.equal([CORE]);
  });

  it("flattens URLs, objects and arrays in order, nested remote contexts included, core last", async () => {
    const used: string[] = [];
    const out = await resolveContext(["https://ex.org/b", { x: "urn:x" }], loader, {
      onUrl: (u) => used.push(u),
    });
    expect(out).to.deep.equal([{ a: "urn:a" }, { b: "urn:b" }, { x: "urn:x" }, CORE]);
    expect(used).to.deep.equal(["https://ex.org/b", "https://ex.org/a"]);
  });

  it("keeps one core context, last, wherever it was named", async () => {
    const out = await resolveContext([CORE_CONTEXT_URL, "https://ex.org/withcore", { y: "urn:y" }], loader);
    expect(out).to.deep.equal([{ w: "urn:w" }, { y: "urn:y" }, CORE]);
    expect(out.filter((c) => c === CORE)).to.have.length(1);
  });

  it("a null entry resets the contexts before it", async () => {
    expect(await resolveContext([{ gone: "urn:g" }, "https://ex.org/reset"], loader)).to.deep.equal([
      { r: "urn:r" },
      CORE,
    ]);
  });

  it("detects cycles and too deep nesting with 400", async () => {
    const cycle = await error(resolveContext("https://ex.org/loop1", loader));
    expect(cycle.kind).to.equal("BadRequestData");
    expect(cycle.message).to.match(/includes itself/);
    const deep = await error(resolveContext("https://ex.org/b", loader, { maxDepth: 1 }));
    expect(deep.kind).to.equal("BadRequestData");
  });

  it("refuses numbers, booleans, relative URLs, nested arrays and a top-level null with 400", async () => {
    for (const v of [
      42,
      [1, 2],
      true,
      "relative/ctx.jsonld",
      ["https://ex.org/a", ["https://ex.org/a"]],
      null,
    ]) {
      const err = await error(resolveContext(v, loader));
      expect(err.kind, JSON.stringify(v)).to.equal("BadRequestData");
      expect(err.status).to.equal(400);
    }
  });

  it("passes LdContextNotAvailable of the loader through", async () => {
    expect((await error(resolveContext("https://ex.org/unknown", loader))).kind).to.equal(
      "LdContextNotAvailable",
    );
  });
});

describe("rdf/context-link parseContextLink (ETSI GS CIM 009 §6.3.5)", () => {
  const REL = 'rel="http://www.w3.org/ns/json-ld#context"';

  it("reads the context URL of a JSON-LD Link header", () => {
    expect(parseContextLink(`<https://ex.org/c.jsonld>; ${REL}; type="application/ld+json"`)).to.equal(
      "https://ex.org/c.jsonld",
    );
    expect(parseContextLink(`<https://ex.org/c.jsonld>;rel=http://www.w3.org/ns/json-ld#context`)).to.equal(
      "https://ex.org/c.jsonld",
    );
  });

  it("ignores other link relations and an absent header", () => {
    expect(parseContextLink(undefined)).to.equal(undefined);
    expect(parseContextLink('<https://ex.org/next>; rel="next"')).to.equal(undefined);
    expect(parseContextLink(`<https://ex.org/next>; rel="next", <https://ex.org/c>; ${REL}`)).to.equal(
      "https://ex.org/c",
    );
  });

  it("throws 400 on a malformed header, two context links, or a relative target", () => {
    for (const h of [
      "https://ex.org/c.jsonld",
      `<https://ex.org/c.jsonld> ${REL}`,
      `<https://ex.org/a>; ${REL}, <https://ex.org/b>; ${REL}`,
      `<c.jsonld>; ${REL}`,
    ]) {
      let err: unknown;
      try {
        parseContextLink(h);
      } catch (e) {
        err = e;
      }
      expect(err, h).to.be.instanceOf(AppError);
      expect((err as AppError).kind).to.equal("BadRequestData");
    }
  });
});
