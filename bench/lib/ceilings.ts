import path from "node:path";
import { freePort, startChild, stopChild, waitFor200 } from "./child";
import { cpuBetween, readCpu, type CpuUse } from "./cpu-share";
import { getLoad } from "./http-scenarios";
import type { LoadResult } from "./load";
import type { Settings } from "./settings";

/**
 * Helpers of bench/run.ts: the bare-Koa ceiling, CPU accounting around a scenario, and the note
 * column of a load (non-2xx flags, cores used).
 */

/** A note for a load with non-2xx answers or errors (these must be 0). */
export function flags(r: LoadResult & { cpu?: CpuUse }): string | undefined {
  const notes: string[] = [];
  const bad = Object.entries(r.statusCodes).filter(([c]) => !c.startsWith("2") || c === "207");
  if (bad.length > 0 || r.errors > 0) {
    notes.push(`FLAG: ${bad.map(([c, n]) => `${n}×${c}`).join(" ")}${r.errors ? ` ${r.errors} errors` : ""}`);
  }
  if (r.cpu) {
    const c = r.cpu;
    notes.push(
      `cores: server ${c.serviceCores} (main thread ${c.mainThreadCores}), load gen ${c.benchCores}, other ${c.foreignCores}`,
    );
  }
  return notes.length ? notes.join("; ") : undefined;
}

/**
 * Runs `f` and adds the CPU use seen meanwhile (cores busy with the bench + service, and with
 * other work on the machine).
 */
export async function withCpu<T extends object>(
  pid: number | undefined,
  f: () => Promise<T>,
): Promise<T & { cpu: CpuUse }> {
  const c0 = readCpu([pid]);
  const r = await f();
  return { ...r, cpu: cpuBetween(c0, readCpu([pid])) };
}

/** The bare-Koa ceiling: bench/bare-koa.ts in a child process, GET / with the scenario settings. */
export async function bareKoa(s: Settings): Promise<LoadResult & { cpu: CpuUse }> {
  const port = await freePort();
  const child = startChild(path.join(__dirname, "..", "bare-koa.js"), {
    port,
    env: { PORT: String(port), HOST: "127.0.0.1" },
  });
  try {
    await waitFor200(child, "/", 10000);
    const c0 = readCpu([child.proc.pid]);
    const r = await getLoad(child.url, "/", s);
    return { ...r, cpu: cpuBetween(c0, readCpu([child.proc.pid])) };
  } finally {
    await stopChild(child);
  }
}
