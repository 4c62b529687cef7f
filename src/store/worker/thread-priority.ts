import fs from "node:fs";
import os from "node:os";

/**
 * Lowers the calling thread's CPU priority to `nice` on Linux, where a thread id from /proc/thread-self is
 * accepted by setpriority, so that background work (a long SPARQL query, a compaction) yields the cores to
 * the HTTP and store threads when they are busy, and still gets the idle ones. Returns the thread id, or
 * undefined where this is not possible (not Linux, or not permitted): the work then runs at normal priority.
 */
export function lowerThreadPriority(nice = 10): number | undefined {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return undefined;
    os.setPriority(tid, nice);
    return tid;
  } catch {
    return undefined;
  }
}
