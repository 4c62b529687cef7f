import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";

const MODULE = path.resolve(__dirname, "../../../src/store/worker/thread-priority.js");

/** Runs lowerThreadPriority in a worker thread of its own; answers its result and the thread's priority. */
function inWorker(): Promise<{ tid: number | undefined; nice: number | undefined }> {
  const code = `
    const { parentPort } = require("node:worker_threads");
    const os = require("node:os");
    const tid = require(${JSON.stringify(MODULE)}).lowerThreadPriority();
    parentPort.postMessage({ tid, nice: tid === undefined ? undefined : os.getPriority(tid) });`;
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true });
    w.once("message", (m: { tid: number | undefined; nice: number | undefined }) => {
      resolve(m);
      void w.terminate();
    });
    w.once("error", reject);
  });
}

describe("store/thread priority of background workers (compaction, SPARQL replica)", () => {
  it("lowers only the calling thread to nice 10 where Linux allows it", async () => {
    const before = os.getPriority(process.pid);
    const r = await inWorker();
    if (fs.existsSync("/proc/thread-self")) {
      expect(r.tid).to.be.a("number").and.not.equal(process.pid);
      expect(r.nice).to.equal(10);
    } else expect(r).to.deep.equal({ tid: undefined, nice: undefined });
    expect(os.getPriority(process.pid)).to.equal(before); // the main thread keeps its priority
  });
});
