/**
 * Polls GET /health while `work` runs and returns the slowest answer time (ms): the service must keep
 * answering it whatever one request does.
 */
export async function slowestHealth(
  base: string,
  work: () => Promise<unknown>,
  everyMs = 20,
): Promise<number> {
  let worst = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      const t = performance.now();
      const r = await fetch(`${base}/health`);
      await r.arrayBuffer();
      worst = Math.max(worst, performance.now() - t);
      await new Promise((res) => setTimeout(res, everyMs));
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await poll;
  }
  return worst;
}

/**
 * Runs `work` (which must be repeatable: it stores nothing) while polling /health, up to `tries` times, and
 * returns the best of the runs' slowest /health answers. A request that blocks the service does it on every
 * run; a slow answer caused by a busy machine (CI shares its cores) does not repeat each time.
 */
export async function healthDuring(base: string, work: () => Promise<unknown>, tries = 5): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < tries && best >= 100; i++) best = Math.min(best, await slowestHealth(base, work));
  return best;
}
