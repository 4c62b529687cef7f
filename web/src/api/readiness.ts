/** What `/health/ready` says: ready, or the list of what is not ready yet. */
export interface ReadinessState {
  ready: boolean;
  notReady: string[];
}

/**
 * Asks `/health` every `everyMs` until the service is ready (docs/operations.md "Probes"); `onChange`
 * hears each answer, the last one ready. `/health` says `ready` and `notReady` with a 200 while the store
 * answers, where `/health/ready` answers 503, which the browser logs as a failed load on every poll. An
 * unreachable service counts as not ready. Returns a stop.
 */
export function watchReadiness(onChange: (s: ReadinessState) => void, everyMs = 2000): () => void {
  let stopped = false;
  let timer: number | undefined;
  const ask = async () => {
    let state: ReadinessState;
    try {
      const res = await fetch("/health", { cache: "no-store" });
      const body = (await res.json()) as { ready?: boolean; notReady?: string[] };
      state = { ready: res.ok && body.ready === true, notReady: body.notReady ?? [] };
    } catch {
      state = { ready: false, notReady: ["service unreachable"] };
    }
    if (stopped) return;
    onChange(state);
    if (!state.ready) timer = window.setTimeout(() => void ask(), everyMs);
  };
  void ask();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
