import { cpuBetween, readCpu } from "./cpu-share";

/**
 * Waits until the service under test is idle: its CPU use over a 2 s window below `maxCores` (the
 * compaction and snapshot a large fill starts run in worker threads for tens of seconds, and would
 * share the two cores with the measured requests). Gives up after `timeoutS`. Returns the seconds
 * waited and the last window's figure.
 */
export async function settle(
  pid: number | undefined,
  maxCores = 0.1,
  timeoutS = 180,
): Promise<{ waitedS: number; lastCores: number; settled: boolean }> {
  const t0 = performance.now();
  for (;;) {
    const a = readCpu([pid]);
    await new Promise((r) => setTimeout(r, 2000));
    const cores = cpuBetween(a, readCpu([pid])).serviceCores;
    const waitedS = Number(((performance.now() - t0) / 1000).toFixed(1));
    if (cores < maxCores || waitedS >= timeoutS)
      return { waitedS, lastCores: cores, settled: cores < maxCores };
  }
}
