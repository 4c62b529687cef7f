import { expect } from "chai";
import { CommitPipeline, type ChangeEvent } from "../../../src/events/commit-pipeline";
import { COMMIT_STAGES } from "../../../src/events/commit-stages";
import type { GraphStore } from "../../../src/store/graph-store";

describe("commit pipeline", () => {
  it("runs its stages in the order commit-stages.ts declares, whatever the order they were added in", () => {
    const pipeline = new CommitPipeline();
    const ran: string[] = [];
    const settled = () => undefined;
    pipeline.deliver("report re-scoring", { onCommit: () => ran.push("report re-scoring"), settled });
    pipeline.deliver("NGSI-LD notifications", { onCommit: () => ran.push("NGSI-LD notifications"), settled });
    pipeline.derive("traffic projection", () => ran.push("traffic projection"));
    pipeline.derive("entity index", () => ran.push("entity index"));
    pipeline.derive("SPARQL replica", () => ran.push("SPARQL replica"), true);
    let feed: ((e: ChangeEvent) => void) | undefined;
    const store: Pick<GraphStore, "onCommit"> = {
      onCommit: (l) => {
        feed = l;
        return () => undefined;
      },
    };
    pipeline.attach(store, { onDurableCommit: () => undefined, setCommitBarrier: () => undefined });
    feed!({ seq: 1, tenant: "", writes: [{ graph: "urn:ngsi-ld:X:1", triples: "" }], meta: undefined });
    const declared = COMMIT_STAGES.map((s) => s.name as string);
    expect(ran).to.deep.equal([...ran].sort((a, b) => declared.indexOf(a) - declared.indexOf(b)));
    expect(ran[0]).to.equal("entity index");
    expect(ran.at(-1)).to.equal("report re-scoring");
    expect(pipeline.describe().deliver).to.deep.equal(["NGSI-LD notifications", "report re-scoring"]);
  });

  it("declares each stage once, durable stages first and deliveries last", () => {
    const names = COMMIT_STAGES.map((s) => s.name);
    expect(new Set(names).size).to.equal(names.length);
    const kinds = COMMIT_STAGES.map((s) => s.kind);
    expect(kinds).to.deep.equal([...kinds].sort((a, b) => rank(a) - rank(b)));
  });
});

const rank = (k: string) => ["durable", "derived", "deliver"].indexOf(k);
