/**
 * Keeps a view current: calls `load` now and again every `everyMs` (one call at a time), hands each
 * answer to `apply` and each failure to `fail`. Returns a stop function.
 */
export function poll<T>(
  load: () => Promise<T>,
  apply: (value: T) => void,
  fail: (e: Error) => void,
  everyMs: number,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    try {
      const v = await load();
      if (!stopped) apply(v);
    } catch (e) {
      if (!stopped) fail(e as Error);
    }
    if (!stopped) timer = setTimeout(tick, everyMs);
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
