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
}

function machineBusy(): number {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal ...
  return cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6] + (cpu[7] ?? 0);
}

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
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
  return { at: performance.now(), machineBusy: machineBusy(), bench: processTicks(process.pid), children };
}

/** CPU use between two readings, in cores (CPU seconds per wall second). */
export interface CpuUse {
  serviceCores: number;
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
  return { serviceCores: r(svc), benchCores: r(bench), foreignCores: r(Math.max(0, busy - svc - bench)) };
}
