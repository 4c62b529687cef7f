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
