import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import jsonld from "jsonld";
import { Parser } from "n3";
import { buildSeedEntities, projectRoot } from "../../../src/demo/seed";
import { documentLoader } from "../demo/rdf-test-helpers";

const read = (f: string) => fs.readFileSync(path.join(projectRoot(), f), "utf8");
const T = "https://w3id.org/citygraph/traffic#";

describe("domain: vocabulary (contexts/traffic.jsonld, ontology/traffic.ttl)", () => {
  const traffic = JSON.parse(read("contexts/traffic.jsonld"))["@context"] as Record<string, string>;
  const core = JSON.parse(read("contexts/ngsi-ld-core-context-v1.8.jsonld"))["@context"] as Record<
    string,
    unknown
  >;

  it("redefines no NGSI-LD core term", () => {
    expect(Object.keys(traffic).filter((k) => !k.startsWith("@") && k in core)).to.deep.equal([]);
  });

  it("maps every term into the ontology namespace, and the ontology declares each one", () => {
    const quads = new Parser().parse(read("ontology/traffic.ttl"));
    const declared = new Set(
      quads
        .filter((q) => q.predicate.value === "http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
        .map((q) => q.subject.value),
    );
    for (const [term, iri] of Object.entries(traffic)) {
      if (term.startsWith("@") || term === "traffic") continue;
      expect(iri, term).to.match(/^traffic:/);
      expect(declared.has(iri.replace(/^traffic:/, T)), `${term} declared`).to.equal(true);
    }
  });

  it("expands a camera with the traffic and core contexts: location and status stay core terms", async () => {
    const cam = buildSeedEntities().cameras[0];
    const [e] = (await jsonld.expand(cam as never, { documentLoader } as never)) as unknown as Record<
      string,
      unknown
    >[];
    expect(e["@type"]).to.deep.equal([`${T}TrafficCamera`]);
    expect(Object.keys(e)).to.include.members([
      `${T}name`,
      `${T}refDistrict`,
      `${T}capabilities`,
      "https://uri.etsi.org/ngsi-ld/location",
      "https://uri.etsi.org/ngsi-ld/status",
    ]);
  });
});
