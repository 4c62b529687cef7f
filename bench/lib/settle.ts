import { cpuBetween, readCpu } from "./cpu-share";

/**
 * The window over which a service must stay under its CPU limit to count as idle: longer than a tick of the
 * history's sealer (`TEMPORAL_SEAL_INTERVAL_MS`, 10 s), which after a fill goes on sealing for minutes in
 * bursts; a shorter window takes the gap between two bursts for the end of the work.
 */
export const QUIET_WINDOW_MS = 12_000;

/**
 * Waits until the service under test is idle: its CPU use over {@link QUIET_WINDOW_MS} below `maxCores`
 * (the history's sealing, compactions and snapshots a large fill starts would share the two cores with the
 * measured requests). Gives up after `timeoutS`. Returns the seconds waited and the last window's figure.
 */
export async function settle(
  pid: number | undefined,
  maxCores = 0.1,
  timeoutS = 180,
): Promise<{ waitedS: number; lastCores: number; settled: boolean }> {
  const t0 = performance.now();
  for (;;) {
    const a = readCpu([pid]);
    await new Promise((r) => setTimeout(r, QUIET_WINDOW_MS));
    const cores = cpuBetween(a, readCpu([pid])).serviceCores;
    const waitedS = Number(((performance.now() - t0) / 1000).toFixed(1));
    if (cores < maxCores || waitedS >= timeoutS)
      return { waitedS, lastCores: cores, settled: cores < maxCores };
  }
}
