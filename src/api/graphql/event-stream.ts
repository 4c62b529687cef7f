/**
 * An async iterator over pushed values (a GraphQL subscription's source): at most `max` values wait
 * for a slow reader; past that `onOverflow` is called (the socket is closed) and the stream ends.
 * `coalesce` gives values a key under which a waiting value is replaced by a newer one.
 */
export class EventStream<T> implements AsyncIterableIterator<T> {
  private readonly waiting: { value: T; key?: string }[] = [];
  private reader?: (r: IteratorResult<T>) => void;
  private done = false;

  constructor(
    private readonly max: number,
    private readonly onEnd: () => void,
    private readonly onOverflow: () => void,
    private readonly coalesce?: (v: T) => string | undefined,
  ) {}

  push(value: T): void {
    if (this.done) return;
    if (this.reader) {
      const r = this.reader;
      this.reader = undefined;
      return r({ value, done: false });
    }
    const key = this.coalesce?.(value);
    if (key !== undefined) {
      const same = this.waiting.find((w) => w.key === key);
      if (same) {
        same.value = value;
        return;
      }
    }
    if (this.waiting.length >= this.max) {
      void this.return();
      this.onOverflow();
      return;
    }
    this.waiting.push({ value, key });
  }

  next(): Promise<IteratorResult<T>> {
    const w = this.waiting.shift();
    if (w) return Promise.resolve({ value: w.value, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.reader = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.done) {
      this.done = true;
      this.waiting.length = 0;
      this.onEnd();
      this.reader?.({ value: undefined, done: true });
      this.reader = undefined;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
