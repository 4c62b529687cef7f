/** One readiness check: true once its part is ready (store loaded, indexes filled, Redis reachable, ...). */
export type ReadinessCheck = () => boolean | Promise<boolean>;

/**
 * Whether the service should get traffic (docs/operations.md "Probes"): every named check passes and the
 * service is not shutting down. A check that throws counts as not ready.
 */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private stopping = false;

  /** Adds a check under `name` (the name `/health/ready` lists while it fails). */
  add(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /** From now on the service is not ready: it is shutting down. */
  drain(): void {
    this.stopping = true;
  }

  /** True once {@link drain} was called. */
  get draining(): boolean {
    return this.stopping;
  }

  /** Each check's answer, "not shutting down" first. */
  async states(): Promise<Record<string, boolean>> {
    const out: Record<string, boolean> = { "not shutting down": !this.stopping };
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        out[name] = await Promise.resolve()
          .then(check)
          .catch(() => false);
      }),
    );
    return out;
  }

  /** The names of what is not ready ("shutting down" while draining); empty when ready. */
  async notReady(): Promise<string[]> {
    const states = await this.states();
    return Object.entries(states)
      .filter(([, ok]) => !ok)
      .map(([name]) => (name === "not shutting down" ? "shutting down" : name));
  }
}
