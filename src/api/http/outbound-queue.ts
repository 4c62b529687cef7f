/**
 * The messages waiting for one socket whose peer reads slower than the service writes: at most `max`
 * of them, so that a client that stops reading cannot grow the server's memory. A message with a
 * coalescing key (a zone's traffic update) replaces the waiting one with the same key in place:
 * newest wins, and a slow reader of traffic sees the latest state instead of a backlog.
 */
export class OutboundQueue<T> {
  private items: { message: T; key?: string }[] = [];
  private head = 0;
  private readonly byKey = new Map<string, { message: T; key?: string }>();

  constructor(private readonly max: number) {}

  /** Queues `message`; false when the queue is full (the caller closes the socket). */
  push(message: T, key?: string): boolean {
    if (key !== undefined) {
      const waiting = this.byKey.get(key);
      if (waiting) {
        waiting.message = message;
        return true;
      }
    }
    if (this.size >= this.max) return false;
    const item = { message, key };
    this.items.push(item);
    if (key !== undefined) this.byKey.set(key, item);
    return true;
  }

  /** The oldest waiting message, removed; undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++];
    if (item.key !== undefined) this.byKey.delete(item.key);
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item.message;
  }

  get size(): number {
    return this.items.length - this.head;
  }
}
