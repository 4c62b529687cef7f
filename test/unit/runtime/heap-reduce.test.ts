import { expect } from "chai";
import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  IDLE_UTILIZATION,
  REDUCE_MIN_GROWTH_BYTES,
  REDUCE_MIN_GROWTH_SHARE,
  REDUCE_MIN_INTERVAL_MS,
  shouldReduce,
  startHeapReduce,
  watchRequests,
} from "../../../src/runtime/heap-reduce";
import { loadMallocTrim } from "../../../src/runtime/malloc-trim";

const MB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("idle heap reduce (src/runtime/heap-reduce.ts, docs/decisions/0001-write-path.md)", () => {
  it("reduces only an idle thread whose heap grew well past its floor, not twice in a row", () => {
    const fresh = { floor: 100 * MB, reducedAt: -Infinity };
    const grown = 100 * MB + REDUCE_MIN_GROWTH_BYTES;
    expect(shouldReduce(fresh, 0, grown, 1000)).to.equal(true);
    expect(shouldReduce(fresh, IDLE_UTILIZATION, grown, 1000), "busy").to.equal(false);
    expect(shouldReduce(fresh, 0, grown - 1, 1000), "grown too little").to.equal(false);
    // on a large floor the share decides: the minimum growth above 4 GiB is not enough, the share is
    const big = { floor: 4096 * MB, reducedAt: -Infinity };
    expect(shouldReduce(big, 0, 4096 * MB + REDUCE_MIN_GROWTH_BYTES, 1000)).to.equal(false);
    expect(shouldReduce(big, 0, 4096 * MB * (1 + REDUCE_MIN_GROWTH_SHARE), 1000)).to.equal(true);
    const recent = { floor: 100 * MB, reducedAt: 1000 };
    expect(shouldReduce(recent, 0, 1000 * MB, 1000 + REDUCE_MIN_INTERVAL_MS - 1)).to.equal(false);
    expect(shouldReduce(recent, 0, 1000 * MB, 1000 + REDUCE_MIN_INTERVAL_MS)).to.equal(true);
  });

  it("ticks: a quiet thread that grew is reduced once; what stays live raises the floor", async () => {
    let calls = 0;
    let bytes = 200 * MB;
    const seen: { mb: number; floorMb: number }[] = [];
    // the figures are the test's: a mocha process running the whole suite frees and grows its own heap meanwhile
    const stop = startHeapReduce(
      10,
      () => calls++,
      (f) => seen.push(f),
      () => true,
      () => bytes,
    );
    try {
      await sleep(40);
      bytes = 150 * MB; // a GC of V8's own lowers the floor
      await sleep(40);
      bytes = 150 * MB + REDUCE_MIN_GROWTH_BYTES - 1;
      await sleep(40);
      expect(calls, "grown too little above the lowered floor").to.equal(0);
      bytes = 150 * MB + REDUCE_MIN_GROWTH_BYTES;
      for (let waited = 0; calls === 0 && waited < 2000; waited += 10) await sleep(10);
      expect(calls).to.equal(1);
      expect(seen[0]).to.deep.include({ mb: Math.round(bytes / 1e6), floorMb: Math.round((150 * MB) / 1e6) });
      bytes += 2 * REDUCE_MIN_GROWTH_BYTES; // within the minimum interval: not again
      await sleep(60);
      expect(calls, "the floor is now what stayed live, and the interval holds").to.equal(1);
    } finally {
      stop();
    }
  });

  it("counts a tick as quiet only when no request is in flight, nor started or ended during it", async () => {
    let release: (() => void) | undefined;
    const server = http.createServer((_req, res) => {
      release = () => res.end("ok");
    });
    const quiet = watchRequests(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      expect(quiet()).to.equal(true);
      const answer = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).then((r) =>
        r.text(),
      );
      while (!release) await sleep(5);
      expect(quiet(), "in flight").to.equal(false);
      release();
      expect(await answer).to.equal("ok");
      await sleep(20);
      expect(quiet(), "ended since the last call").to.equal(false);
      expect(quiet()).to.equal(true);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it("is off at interval 0", async () => {
    let calls = 0;
    startHeapReduce(0, () => calls++);
    const held = Buffer.alloc(2 * REDUCE_MIN_GROWTH_BYTES, 1);
    await sleep(50);
    expect(calls + held[0]).to.equal(1);
  });

  it("the addon's reduceHeap gives a thread's dead heap back to the kernel (not only collects it)", function () {
    this.timeout(30_000);
    const addon = loadMallocTrim();
    if (typeof addon === "string") {
      // the addon is optional where it cannot be built; glibc machines build it (malloc-trim.test.ts)
      expect(process.report.getReport()).to.not.have.nested.property("header.glibcVersionRuntime");
      return;
    }
    expect(addon.reduceHeap).to.be.a("function");
    // a child: ~200 MB of small objects, nine in ten dropped; a plain full GC collects them but keeps the
    // pages resident, the memory-pressure GC gives them back, in the main thread and in a worker alike
    const mod = path.resolve(__dirname, "../../../src/runtime/malloc-trim.js");
    const body = `
      const addon = require(${JSON.stringify(mod)}).loadMallocTrim();
      const v8 = require("node:v8");
      const phys = () => v8.getHeapStatistics().total_physical_size / 1048576;
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      async function run() {
        const keep = [];
        let drop = [];
        for (let i = 0; i < 3e6; i++) (i % 10 === 0 ? keep : drop).push({ i, s: "x" + i });
        drop = null;
        global.gc();
        await sleep(200);
        const afterGc = phys();
        const started = addon.reduceHeap();
        await sleep(1000);
        return { afterGc, after: phys(), started, kept: keep.length };
      }
    `;
    const main = `${body}
      const { Worker } = require("node:worker_threads");
      run().then((m) => {
        const w = new Worker(${JSON.stringify(`${body}\nrun().then((r) => require("node:worker_threads").parentPort.postMessage(r));`)}, { eval: true });
        w.once("message", (worker) => { process.stdout.write(JSON.stringify({ main: m, worker })); w.terminate(); });
      });
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ["--expose-gc", "-e", main], { encoding: "utf8" }),
    ) as Record<"main" | "worker", { afterGc: number; after: number; started: boolean; kept: number }>;
    for (const t of [out.main, out.worker]) {
      expect(t.started, JSON.stringify(out)).to.equal(true);
      expect(t.kept).to.equal(300000);
      expect(t.afterGc - t.after, JSON.stringify(out)).to.be.above(60);
    }
  });
});
