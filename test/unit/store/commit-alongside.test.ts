import { expect } from "chai";
import { AppError } from "../../../src/errors";
import type { CommitEvent } from "../../../src/store/graph-store";
import { entityTriples, open, removeDir, tempDir } from "./helpers";

/**
 * GraphStore.commit's `onApplied` (state as durable as the commit, written while the journal record is
 * fsynced) and the batching of requests and answers between the main thread and the store worker.
 */
describe("store/commit: onApplied alongside the journal fsync, batched messages", () => {
  it("calls onApplied once per applied commit with its journal seq, in commit order; its event and its resolve wait for it", async () => {
    const dir = tempDir();
    const store = await open(dir);
    try {
      const order: string[] = [];
      const events: number[] = [];
      store.onCommit((e: CommitEvent) => events.push(e.seq));
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const settled: number[] = [];
      const first = store.commit(
        "",
        [{ graph: "urn:a", triples: entityTriples("urn:a", "a") }],
        async (seq) => {
          order.push(`applied a as ${seq}`);
          await gate;
          order.push("released a");
        },
      );
      const second = store.commit(
        "",
        [{ graph: "urn:b", triples: entityTriples("urn:b", "b") }],
        async (seq) => void order.push(`applied b as ${seq}`),
      );
      const third = store.commit("", [{ graph: "urn:c", triples: entityTriples("urn:c", "c") }]);
      for (const [i, p] of [first, second, third].entries()) void p.then(() => settled.push(i + 1));
      // b and c are journaled (the worker answers stats after it took them) but their events follow a's
      await store.stats();
      await new Promise((r) => setTimeout(r, 50));
      expect(order).to.deep.equal(["applied a as 1", "applied b as 2"]);
      expect(events).to.deep.equal([]);
      expect(settled).to.deep.equal([]);
      release();
      expect(await Promise.all([first, second, third])).to.deep.equal([1, 2, 3]);
      expect(events).to.deep.equal([1, 2, 3]);
      expect(settled).to.deep.equal([1, 2, 3]);
      expect(order).to.deep.equal(["applied a as 1", "applied b as 2", "released a"]);
    } finally {
      await store.close();
      removeDir(dir);
    }
  });

  it("never calls onApplied for a refused commit; rejects a commit whose onApplied fails, and emits it", async () => {
    const dir = tempDir();
    const store = await open(dir);
    try {
      const events: string[] = [];
      store.onCommit((e) => events.push(e.writes[0].graph));
      let called = 0;
      const err = await store
        .commit("", [{ graph: "urn:bad", triples: '<urn:bad> <urn:p> "unterminated .\n' }], async () => {
          called++;
        })
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AppError).and.have.property("kind", "BadRequestData");
      expect(called).to.equal(0);
      const failed = await store
        .commit("", [{ graph: "urn:s", triples: entityTriples("urn:s", "s", 1) }], async () => {
          throw new Error("history disk full");
        })
        .catch((e: unknown) => e);
      expect(failed).to.be.instanceOf(Error).and.have.property("message", "history disk full");
      // the store write itself is committed (a failing hook fails only the acknowledgement): the feed has it
      expect((await store.readGraphs("", ["urn:s"]))[0]).to.not.equal(null);
      expect(events).to.deep.equal(["urn:s"]);
    } finally {
      await store.close();
      removeDir(dir);
    }
  });

  it("answers 500 concurrent commits and reads in one turn with the right answer each, seq in order", async () => {
    const dir = tempDir();
    const store = await open(dir);
    try {
      const seen: number[] = [];
      store.onCommit((e) => seen.push(e.seq));
      const ids = Array.from({ length: 500 }, (_, i) => `urn:e:${i}`);
      const seqs = await Promise.all(
        ids.map((g) => store.commit("", [{ graph: g, triples: entityTriples(g, g) }])),
      );
      expect(seqs).to.deep.equal(ids.map((_, i) => i + 1));
      expect(seen).to.deep.equal(seqs);
      const reads = await Promise.all(ids.map((g) => store.readGraphs("", [g])));
      reads.forEach(([t], i) => expect(t).to.contain(`"${ids[i]}-0"`));
      expect((await store.stats()).lastSeq).to.equal(500);
    } finally {
      await store.close();
      removeDir(dir);
    }
  });
});
