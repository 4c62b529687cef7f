import { expect } from "chai";
import { SlicedQueue } from "../../../../src/store/worker/sliced-queue";

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("store/worker sliced request queue (docs/decisions/0002-memory-at-scale.md)", () => {
  it("runs items at once, in order, and defers the rest to a later turn once a slice is spent", async () => {
    let clock = 0;
    const ran: number[] = [];
    // each item "takes" 4 ms of the fake clock; a slice is 10 ms, so three items run per turn
    const q = new SlicedQueue<number>(
      (n) => {
        ran.push(n);
        clock += 4;
      },
      10,
      () => clock,
    );
    q.push(1, 2, 3, 4, 5, 6, 7);
    expect(ran).to.deep.equal([1, 2, 3]);
    expect(q.length).to.equal(4);
    q.push(8); // a slice is pending: queued behind, not run ahead of 4..7
    expect(ran).to.deep.equal([1, 2, 3]);
    await turn();
    expect(ran).to.deep.equal([1, 2, 3, 4, 5, 6]);
    await turn();
    expect(ran).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(q.length).to.equal(0);
  });

  it("waits for an item that returns a promise before running the next, and keeps order", async () => {
    const ran: string[] = [];
    let finish: () => void = () => undefined;
    const q = new SlicedQueue<string>((s) => {
      ran.push(s);
      if (s === "big") return new Promise<void>((r) => (finish = r));
    }, 1000);
    q.push("a", "big", "b");
    q.push("c");
    expect(ran).to.deep.equal(["a", "big"]);
    await turn();
    expect(ran).to.deep.equal(["a", "big"]);
    finish();
    await turn();
    expect(ran).to.deep.equal(["a", "big", "b", "c"]);
  });

  it("puts held-back items before what waits (unshift)", async () => {
    const ran: number[] = [];
    let finish: () => void = () => undefined;
    const q = new SlicedQueue<number>((n) => {
      ran.push(n);
      if (n === 0) return new Promise<void>((r) => (finish = r));
    }, 1000);
    q.push(0, 3, 4);
    q.unshift(1, 2);
    finish();
    await turn();
    expect(ran).to.deep.equal([0, 1, 2, 3, 4]);
    q.unshift(5); // idle queue: runs at once
    expect(ran).to.deep.equal([0, 1, 2, 3, 4, 5]);
  });
});
