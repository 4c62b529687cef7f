import { expect } from "chai";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { createLogger } from "../../../src/log/logger";
import {
  loadMallocTrim,
  shouldTrim,
  startMallocTrim,
  TRIM_MAX_AGE_MS,
  TRIM_MIN_CHANGE_BYTES,
  TRIM_MIN_FREE_BYTES,
  type MallocTrimAddon,
} from "../../../src/runtime/malloc-trim";

const MB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A fake addon whose free bytes the test sets; counts the trims. */
function fakeAddon(): MallocTrimAddon & { free: number; trims: number } {
  const a = {
    free: 0,
    trims: 0,
    freeBytesAsync: () => Promise.resolve(a.free),
    trimAsync: () => {
      a.trims++;
      return Promise.resolve(1);
    },
  };
  return a;
}

describe("malloc trim (src/runtime/malloc-trim.ts, docs/decisions/0004-malloc-trim-and-heap-reduce.md)", () => {
  it("trims only with enough free memory, and again only when it changed or aged", () => {
    const fresh = { freeAfterTrim: -1, trimmedAt: 0 };
    expect(shouldTrim(fresh, TRIM_MIN_FREE_BYTES - 1, 1000)).to.equal(false);
    expect(shouldTrim(fresh, TRIM_MIN_FREE_BYTES, 1000)).to.equal(true);
    const after = { freeAfterTrim: 100 * MB, trimmedAt: 1000 };
    expect(shouldTrim(after, 100 * MB + TRIM_MIN_CHANGE_BYTES - 1, 2000)).to.equal(false);
    expect(shouldTrim(after, 100 * MB + TRIM_MIN_CHANGE_BYTES, 2000)).to.equal(true);
    expect(shouldTrim(after, 100 * MB - TRIM_MIN_CHANGE_BYTES, 2000)).to.equal(true);
    expect(shouldTrim(after, 100 * MB, 1000 + TRIM_MAX_AGE_MS)).to.equal(true);
    expect(shouldTrim(after, TRIM_MIN_FREE_BYTES - 1, 1000 + TRIM_MAX_AGE_MS)).to.equal(false);
  });

  it("ticks: trims once for new free memory, not again while it stays, again when it grows", async () => {
    const addon = fakeAddon();
    const stop = startMallocTrim(5, createLogger("error"), addon);
    try {
      addon.free = 64 * MB;
      await sleep(40);
      expect(addon.trims).to.equal(1);
      addon.free = 64 * MB + TRIM_MIN_CHANGE_BYTES;
      await sleep(40);
      expect(addon.trims).to.equal(2);
    } finally {
      stop();
    }
  });

  it("is a no-op with one info line when the addon is absent, and off at interval 0", async () => {
    const lines: string[] = [];
    const log = { ...createLogger("error"), info: (m: string) => void lines.push(m) };
    startMallocTrim(5, log, "Cannot find module 'citygraph-malloc-trim'")();
    expect(lines).to.deep.equal(["malloc trim unavailable: glibc keeps freed memory resident"]);
    const addon = fakeAddon();
    addon.free = 64 * MB;
    startMallocTrim(0, log, addon);
    await sleep(20);
    expect(addon.trims).to.equal(0);
  });

  it("the addon built by npm ci gives freed heap chunks back to the kernel (glibc)", function () {
    this.timeout(30_000);
    const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header
      .glibcVersionRuntime;
    const addon = loadMallocTrim();
    if (glibc === undefined) {
      expect(addon).to.be.a("string");
      return;
    }
    expect(addon, String(addon)).to.be.an("object");
    // a child: 2,000 Buffers of 100 KB from glibc's heap, every other one freed, then a trim
    const mod = path.resolve(__dirname, "../../../src/runtime/malloc-trim.js");
    const script = `
      const addon = require(${JSON.stringify(mod)}).loadMallocTrim();
      const rss = () => process.memoryUsage.rss() / 1048576;
      const keep = [];
      for (let i = 0; i < 2000; i++) keep.push(Buffer.alloc(100000, 1));
      for (let i = 0; i < keep.length; i += 2) keep[i] = null;
      global.gc();
      setTimeout(() => {
        // V8 frees the dead Buffers' memory on a sweeper thread after the GC: give it time
        const before = rss();
        addon.freeBytesAsync().then(async (bytes) => {
          const r = await addon.trimAsync();
          const free = bytes / 1048576;
          process.stdout.write(JSON.stringify({ before, after: rss(), free, r, kept: keep.length }));
        });
      }, 300);
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ["--expose-gc", "-e", script], { encoding: "utf8" }),
    ) as { before: number; after: number; free: number; r: number };
    expect(out.free, JSON.stringify(out)).to.be.above(80);
    expect(out.r).to.equal(1);
    expect(out.before - out.after, JSON.stringify(out)).to.be.above(60);
  });
});
