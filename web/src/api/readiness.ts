/** What `/health/ready` says: ready, or the list of what is not ready yet. */
export interface ReadinessState {
  ready: boolean;
  notReady: string[];
}

/**
 * Asks `/health/ready` every `everyMs` until the service is ready (docs/operations.md "Probes"); `onChange`
 * hears each answer, the last one ready. An unreachable service counts as not ready. Returns a stop.
 */
export function watchReadiness(onChange: (s: ReadinessState) => void, everyMs = 2000): () => void {
  let stopped = false;
  let timer: number | undefined;
  const ask = async () => {
    let state: ReadinessState;
    try {
      const res = await fetch("/health/ready", { cache: "no-store" });
      const body = (await res.json()) as { notReady?: string[] };
      state = { ready: res.status === 200, notReady: body.notReady ?? [] };
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
