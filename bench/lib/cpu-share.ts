import { readFileSync } from "node:fs";

/**
 * How much CPU other work on the machine took during a scenario: busy CPU time of the whole machine
 * (/proc/stat) minus that of the bench process and the service (/proc/<pid>/stat utime + stime).
 * The machine is shared; a scenario with much foreign CPU is not a clean figure.
 */

const HZ = 100; // USER_HZ on Linux

/** A reading of machine-wide and own CPU time, in clock ticks. */
export interface CpuReading {
  at: number;
  machineBusy: number;
  /** The bench process (load generator). */
  bench: number;
  /** The child processes (the service under test). */
  children: number;
  /** The main (HTTP) thread of the first child: its thread id is its pid. */
  mainThread: number;
}

function machineBusy(): number {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal ...
  return cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6] + (cpu[7] ?? 0);
}

/**
 * utime + stime of a process (`/proc/<pid>/stat`) or of one of its threads (`/proc/<pid>/task/<tid>/stat`),
 * in ticks of 1/100 s; 0 once it has ended.
 */
export function processTicks(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(
      tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`,
      "utf8",
    );
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]); // utime, stime (fields 14, 15)
  } catch {
    return 0;
  }
}

/** Reads the CPU counters now; `pids` are the bench's children to count as own work. */
export function readCpu(pids: (number | undefined)[]): CpuReading {
  let children = 0;
  for (const p of pids) if (p !== undefined) children += processTicks(p);
  const main = pids[0] === undefined ? 0 : processTicks(pids[0], pids[0]);
  return {
    at: performance.now(),
    machineBusy: machineBusy(),
    bench: processTicks(process.pid),
    children,
    mainThread: main,
  };
}

/** CPU use between two readings, in cores (CPU seconds per wall second). */
export interface CpuUse {
  serviceCores: number;
  /**
   * Of `serviceCores`, the service's main thread (HTTP, JSON, codec, indexes); the rest is its other
   * threads: the store worker (Oxigraph, journal), V8's GC helpers and libuv's pool (fsync).
   */
  mainThreadCores: number;
  benchCores: number;
  foreignCores: number;
}

/** CPU seconds per wall second between two readings: the service, the load generator, other work. */
export function cpuBetween(a: CpuReading, b: CpuReading): CpuUse {
  const wall = (b.at - a.at) / 1000;
  const svc = (b.children - a.children) / HZ;
  const bench = (b.bench - a.bench) / HZ;
  const busy = (b.machineBusy - a.machineBusy) / HZ;
  const r = (x: number): number => Number((x / wall).toFixed(2));
  return {
    serviceCores: r(svc),
    mainThreadCores: r((b.mainThread - a.mainThread) / HZ),
    benchCores: r(bench),
    foreignCores: r(Math.max(0, busy - svc - bench)),
  };
}
