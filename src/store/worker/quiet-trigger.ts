/**
 * Runs a task once a stream of events has paused: {@link QuietTrigger.arm} asks for the task, which runs
 * when `quietMs` have passed since the latest {@link QuietTrigger.touch}; while touches keep coming it
 * waits. The store worker can put a due compaction off this way until a write burst has ended, since
 * both compete for the cores (docs/decisions/0005-maintenance-after-a-burst.md); its caller bounds the
 * wait by size.
 */
export class QuietTrigger {
  private last = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param quietMs how long without a touch counts as a pause (ms; 0 = run at once)
   * @param task what to run once the pause has come
   * @param now the clock (ms)
   */
  constructor(
    private readonly quietMs: number,
    private readonly task: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records an event (a commit): the pause starts again from now. */
  touch(): void {
    this.last = this.now();
  }

  /** True while the task is asked for and waits for the pause. */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** Asks for the task (once, however often it is called before it runs): now if quiet, else after the pause. */
  arm(): void {
    if (this.timer) return;
    const idle = this.now() - this.last;
    if (idle >= this.quietMs) {
      this.task();
      return;
    }
    this.wait(this.quietMs - idle);
  }

  /** Forgets the request (shutdown). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private wait(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.arm();
    }, ms);
    this.timer.unref();
  }
}
