import { expect } from "chai";
import { graphRuns } from "../../../../src/store/snapshot/graph-runs";

describe("store/snapshot graph runs", () => {
  const text =
    '<urn:a> <urn:p> "x <urn:b> ." <urn:g1> .\n_:b0 <urn:p> _:b1 <urn:g1> .\n' +
    "<urn:a> <urn:p> <urn:o> <urn:g2> .\n<urn:a> <urn:q> <urn:o> <urn:g1> .\n";

  it("groups lines by graph whatever the chunk boundaries, and keeps every byte", () => {
    const bytes = Buffer.from(text);
    for (const size of [1, 5, 17, 40, bytes.length]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const runs = [...graphRuns(chunks, "test")];
      const lines = new Map<string, number>();
      for (const r of runs) lines.set(r.graph, (lines.get(r.graph) ?? 0) + r.lines);
      expect(Object.fromEntries(lines), `chunks of ${size}`).to.deep.equal({ "urn:g1": 3, "urn:g2": 1 });
      expect(runs.map((r) => r.buf.toString("utf8", r.start, r.end)).join("")).to.equal(text);
    }
  });

  it("refuses a line that does not end in a graph name, and a file cut mid-line", () => {
    expect(() => [...graphRuns([Buffer.from('<urn:a> <urn:p> "o" .\n')], "t")]).to.throw(/graph name/);
    expect(() => [...graphRuns([Buffer.from("<urn:a> <urn:p> <urn:o> <urn:g> .")], "t")]).to.throw(/newline/);
  });
});
