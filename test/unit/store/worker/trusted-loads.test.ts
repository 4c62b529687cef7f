import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { TenantDatasets } from "../../../../src/store/worker/tenant-datasets";

const G = "urn:ngsi-ld:Camera:a";
/** An object IRI that Oxigraph's strict parser refuses (bad percent-encoding) and its lenient one takes. */
const BAD_IRI = `<urn:ngsi-ld:Camera:a> <urn:test:p> <http://example.org/%zz> .\n`;

describe("store/trusted loads: strict for new commits, lenient for replay and snapshots", () => {
  it("refuses a new commit whose text Oxigraph's strict parser rejects, and keeps nothing of it", () => {
    const d = new TenantDatasets(1_000_000);
    let err: unknown;
    try {
      d.apply("", [{ graph: G, triples: BAD_IRI }]);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).kind).to.equal("BadRequestData");
    expect(d.quads).to.equal(0);
    expect(d.readGraph("", G)).to.equal(null);
  });

  it("replays journal writes leniently: they passed a strict load when they were committed", () => {
    const d = new TenantDatasets(1_000_000);
    d.apply("", [{ graph: G, triples: BAD_IRI }], true);
    expect(d.quads).to.equal(1);
    expect(d.readGraph("", G)).to.contain("http://example.org/%zz");
  });

  it("loads a snapshot from its chunks without joining them: a graph split across chunks keeps one blank node", () => {
    const d = new TenantDatasets(1_000_000);
    const text =
      `_:x <urn:test:p> "one" <${G}> .\n` +
      `_:x <urn:test:q> "two" <${G}> .\n` +
      `<urn:ngsi-ld:Camera:b> <urn:test:p> <http://example.org/%zz> <urn:ngsi-ld:Camera:b> .\n`;
    const bytes = Buffer.from(text);
    const cut = text.indexOf("two"); // in the middle of a line of the first graph
    d.loadSnapshot("", [bytes.subarray(0, cut), bytes.subarray(cut)], "test", 16);
    expect(d.quads).to.equal(3);
    const a = d.readGraph("", G) ?? "";
    const subjects = new Set(
      a
        .trim()
        .split("\n")
        .map((l) => l.split(" ")[0]),
    );
    expect(subjects.size).to.equal(1);
    expect(d.readGraph("", "urn:ngsi-ld:Camera:b")).to.contain("%zz");
  });
});
