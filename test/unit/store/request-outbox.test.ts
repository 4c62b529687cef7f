import { expect } from "chai";
import { RequestOutbox } from "../../../src/store/request-outbox";

describe("store request outbox (docs/decisions/0001-write-path.md)", () => {
  /** An outbox on a fake clock whose end-of-turn callbacks run when `endTurn` is called. */
  function fake(maxWaitMs: number) {
    let clock = 0;
    let deferred: (() => void)[] = [];
    const sent: number[][] = [];
    const box = new RequestOutbox<number>(
      (items) => sent.push(items),
      maxWaitMs,
      () => clock,
      (fn) => deferred.push(fn),
    );
    return {
      box,
      sent,
      advance: (ms: number) => (clock += ms),
      endTurn: () => {
        const run = deferred;
        deferred = [];
        for (const fn of run) fn();
      },
    };
  }

  it("sends the requests of one short turn together at its end", () => {
    const f = fake(1);
    f.box.push(1);
    f.advance(0.3);
    f.box.push(2);
    expect(f.sent).to.deep.equal([]);
    f.endTurn();
    expect(f.sent).to.deep.equal([[1, 2]]);
    f.endTurn();
    expect(f.sent).to.deep.equal([[1, 2]]); // nothing sent twice, no empty batch
  });

  it("sends what waits once the oldest has waited maxWaitMs, in order, and the rest at the end of the turn", () => {
    const f = fake(1);
    f.box.push(1);
    f.advance(0.4);
    f.box.push(2);
    f.advance(0.7); // the oldest has waited 1.1 ms: 1, 2 and 3 go now
    f.box.push(3);
    expect(f.sent).to.deep.equal([[1, 2, 3]]);
    f.box.push(4); // a new oldest: waits again
    f.advance(0.2);
    f.box.push(5);
    expect(f.sent).to.deep.equal([[1, 2, 3]]);
    f.endTurn();
    expect(f.sent).to.deep.equal([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("sends an urgent request at once, with what waits before it", () => {
    const f = fake(1);
    f.box.push(1);
    f.box.push(2, true);
    expect(f.sent).to.deep.equal([[1, 2]]);
    f.box.push(3);
    f.endTurn();
    expect(f.sent).to.deep.equal([[1, 2], [3]]);
  });

  it("works on the real clock and event loop", async () => {
    const sent: number[][] = [];
    const box = new RequestOutbox<number>((items) => sent.push(items), 1);
    box.push(1);
    const until = performance.now() + 2;
    while (performance.now() < until); // a busy turn of 2 ms
    box.push(2); // the first waited 2 ms: both go at once
    box.push(3);
    expect(sent).to.deep.equal([[1, 2]]);
    await new Promise((r) => setImmediate(r));
    expect(sent).to.deep.equal([[1, 2], [3]]);
  });
});
