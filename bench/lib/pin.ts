import { execFileSync } from "node:child_process";
import os from "node:os";

/**
 * CPU pinning for comparisons on a small machine: with the load generator and the service on separate
 * cores, neither steals the other's core, so two services measured one after the other see the same
 * machine. `BENCH_PIN=off` leaves the scheduler alone; on a machine with one CPU nothing is pinned.
 */

/** Whether pinning is on: two or more CPUs, `taskset` present and `BENCH_PIN` not `off`. */
export function pinningOn(): boolean {
  if (process.env.BENCH_PIN === "off" || os.cpus().length < 2) return false;
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Pins every thread of `pid` (threads started later inherit it) to CPU `cpu`. */
export function pinProcess(pid: number, cpu: number): void {
  execFileSync("taskset", ["-a", "-cp", String(cpu), String(pid)], { stdio: "ignore" });
}
