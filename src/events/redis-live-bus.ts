import { randomUUID } from "node:crypto";
import IORedis from "ioredis";
import type { LiveBus, LiveListener } from "./live-bus";
import { LocalLiveBus } from "./live-bus";
import type { LiveEvent } from "./live-event";
import type { LiveFilter } from "./subscriber-index";

/** A message on the Redis channel: the event and the process that published it. */
interface Envelope {
  origin: string;
  event: LiveEvent;
}

/**
 * The bus across processes (docs/design.md "pub/sub between replicas"): an event is delivered at once to
 * this process's subscribers and published on one Redis channel; every other process subscribed to
 * that channel delivers it to its own subscribers. A process skips its own messages by origin id.
 * Pub/sub is at most once: a process disconnected from Redis misses what was published meanwhile
 * (a resuming client's `since` replay covers the gap from the history).
 */
export class RedisLiveBus implements LiveBus {
  private readonly local: LocalLiveBus;
  private readonly origin = randomUUID();

  private constructor(
    private readonly pub: IORedis,
    private readonly sub: IORedis,
    private readonly channel: string,
    private readonly onError: (e: unknown) => void,
  ) {
    this.local = new LocalLiveBus(onError);
    sub.on("message", (ch: string, text: string) => {
      if (ch !== this.channel) return;
      let env: Envelope;
      try {
        env = JSON.parse(text) as Envelope;
      } catch (e) {
        return this.onError(e);
      }
      if (env.origin !== this.origin && env.event) this.local.dispatch(env.event);
    });
  }

  /** Connects both clients and subscribes to `channel` before resolving. */
  static async open(url: string, channel: string, onError: (e: unknown) => void): Promise<RedisLiveBus> {
    const pub = new IORedis(url, { maxRetriesPerRequest: 3, lazyConnect: true });
    const sub = new IORedis(url, { maxRetriesPerRequest: null, lazyConnect: true });
    pub.on("error", onError);
    sub.on("error", onError);
    try {
      await Promise.all([pub.connect(), sub.connect()]);
      await sub.subscribe(channel);
    } catch (e) {
      pub.disconnect();
      sub.disconnect();
      throw new Error(`live events: cannot reach Redis at ${url}: ${String(e)}`);
    }
    return new RedisLiveBus(pub, sub, channel, onError);
  }

  publish(e: LiveEvent): void {
    this.local.dispatch(e);
    const env: Envelope = { origin: this.origin, event: e };
    this.pub.publish(this.channel, JSON.stringify(env)).catch(this.onError);
  }

  subscribe(filter: LiveFilter, listener: LiveListener): () => void {
    return this.local.subscribe(filter, listener);
  }

  get subscriptions(): number {
    return this.local.subscriptions;
  }

  async close(): Promise<void> {
    await Promise.all([this.sub.quit().catch(() => undefined), this.pub.quit().catch(() => undefined)]);
  }
}
