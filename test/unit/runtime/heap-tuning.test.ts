import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect } from "chai";

/**
 * A child process keeps ~100 MB live and churns objects that live long enough to reach the old
 * generation; it prints the largest heap V8 committed meanwhile.
 */
function maxHeapMb(percent: number): number {
  const tuning = path.resolve(__dirname, "../../../src/runtime/heap-tuning.js");
  const script = `
    const v8 = require("node:v8");
    require(${JSON.stringify(tuning)}).tuneHeap(${percent});
    const live = [];
    for (let i = 0; i < 1e6; i++) live.push({ a: i, b: "x" + i });
    const ring = new Array(500000);
    let max = 0;
    for (let r = 0; r < 1e7; r++) {
      ring[r % ring.length] = { r, s: "y" + r };
      if ((r & 0xffff) === 0) max = Math.max(max, v8.getHeapStatistics().total_heap_size);
    }
    process.stdout.write(String(Math.round(max / 1048576) + live.length * 0));
  `;
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}

describe("heap tuning (HEAP_GROWING_PERCENT, src/runtime/heap-tuning.ts)", () => {
  it("sets V8's growth of the old generation past its live size at run time", function () {
    this.timeout(60_000);
    // V8's own factor is dynamic (1.1x to 4x); two settings far apart show the flag is applied
    const loose = maxHeapMb(300);
    const tight = maxHeapMb(10);
    expect(tight, `at 300 % ${loose} MB, at 10 % ${tight} MB`).to.be.below(loose * 0.7);
  });
});
