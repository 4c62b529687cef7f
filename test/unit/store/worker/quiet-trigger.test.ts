import { expect } from "chai";
import { QuietTrigger } from "../../../../src/store/worker/quiet-trigger";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("store/quiet trigger (a due compaction waits for a pause in commits)", () => {
  it("runs at once when nothing was touched for the quiet period", () => {
    let runs = 0;
    const t = new QuietTrigger(
      1000,
      () => runs++,
      () => 5000,
    );
    t.arm();
    expect(runs).to.equal(1);
    expect(t.armed).to.equal(false);
  });

  it("waits while touches keep coming, once however often it is armed, and runs after the pause", async () => {
    let runs = 0;
    const t = new QuietTrigger(60, () => runs++);
    for (let i = 0; i < 5; i++) {
      t.touch();
      t.arm();
      await sleep(20);
    }
    expect(runs).to.equal(0);
    expect(t.armed).to.equal(true);
    await sleep(120);
    expect(runs).to.equal(1);
    expect(t.armed).to.equal(false);
  });

  it("forgets the request when cancelled", async () => {
    let runs = 0;
    const t = new QuietTrigger(30, () => runs++);
    t.touch();
    t.arm();
    t.cancel();
    await sleep(60);
    expect(runs).to.equal(0);
  });
});
