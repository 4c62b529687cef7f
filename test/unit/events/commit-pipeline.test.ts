import { expect } from "chai";
import type { ChangeEvent, EntityChange } from "../../../src/events/change-event";
import { CommitPipeline, type CommitHooks } from "../../../src/events/commit-pipeline";
import type { CompiledContext } from "../../../src/rdf/contexts/compiled-context";
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
    pipeline.derive("derived indexes' seq", () => ran.push("derived indexes' seq"), true);
    let feed: ((e: ChangeEvent) => void) | undefined;
    const store: Pick<GraphStore, "onCommit"> = {
      onCommit: (l) => {
        feed = l;
        return () => undefined;
      },
    };
    pipeline.attach(store, { setCommitHooks: () => undefined });
    feed!({ seq: 1, tenant: "", writes: [{ graph: "urn:ngsi-ld:X:1", triples: "" }] });
    const declared = COMMIT_STAGES.map((s) => s.name as string);
    expect(ran).to.deep.equal([...ran].sort((a, b) => declared.indexOf(a) - declared.indexOf(b)));
    expect(ran[0]).to.equal("entity index");
    expect(ran.at(-1)).to.equal("report re-scoring");
    expect(pipeline.describe().deliver).to.deep.equal(["NGSI-LD notifications", "report re-scoring"]);
  });

  it("hands the committer's entity change to the durable stages, then with the store's event to the others", async () => {
    const pipeline = new CommitPipeline();
    const seen: string[] = [];
    pipeline.durable("temporal history", async (tenant, change, seq) => {
      seen.push(`durable ${seq} ${change.operation}`);
    });
    pipeline.derive("entity index", (e) => seen.push(`derived ${e.seq} ${e.change?.operation ?? "-"}`));
    pipeline.derive(
      "derived indexes' seq",
      (e) => seen.push(`all graphs ${e.seq} ${e.change?.operation ?? "-"}`),
      true,
    );
    pipeline.deliver("NGSI-LD notifications", {
      onCommit: (e) => seen.push(`deliver ${e.seq} ${e.change?.operation ?? "-"}`),
      settled: (seq) => (seq === 2 ? Promise.resolve() : undefined),
    });
    let feed: ((e: ChangeEvent) => void) | undefined;
    let hooks: CommitHooks | undefined;
    pipeline.attach(
      {
        onCommit: (l) => {
          feed = l;
          return () => undefined;
        },
      },
      { setCommitHooks: (h) => (hooks = h) },
    );
    const change = (operation: string): EntityChange => ({
      operation,
      after: new Map(),
      before: new Map(),
      ctx: {} as CompiledContext,
    });
    const entity = [{ graph: "urn:ngsi-ld:X:1", triples: "" }];
    await hooks!.applied("", change("lost"), 1); // applied, but its journal write failed: never emitted
    await hooks!.applied("", change("create"), 2);
    feed!({ seq: 2, tenant: "", writes: entity });
    feed!({ seq: 3, tenant: "", writes: [{ graph: "urn:citygraph:internal:x", triples: "" }] });
    feed!({ seq: 2, tenant: "", writes: entity }); // taken once
    expect(seen).to.deep.equal([
      "durable 1 lost",
      "durable 2 create",
      "derived 2 create",
      "all graphs 2 create",
      "deliver 2 create",
      "all graphs 3 -",
      "deliver 3 -",
      "derived 2 -",
      "all graphs 2 -",
      "deliver 2 -",
    ]);
    expect(hooks!.settled(2)).to.be.instanceOf(Promise);
    expect(hooks!.settled(3)).to.equal(undefined);
  });

  it("declares each stage once, durable stages first and deliveries last", () => {
    const names = COMMIT_STAGES.map((s) => s.name);
    expect(new Set(names).size).to.equal(names.length);
    const kinds = COMMIT_STAGES.map((s) => s.kind);
    expect(kinds).to.deep.equal([...kinds].sort((a, b) => rank(a) - rank(b)));
  });
});

const rank = (k: string) => ["durable", "derived", "deliver"].indexOf(k);
