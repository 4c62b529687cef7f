import type { LiveEvent } from "./live-event";
import { SubscriberIndex, type LiveFilter } from "./subscriber-index";

/** A subscriber's delivery function; it must not throw and must not block (it queues). */
export type LiveListener = (e: LiveEvent) => void;

/**
 * The event bus of the live faces (docs/design.md "event fan-out to WebSocket / GraphQL subscribers"):
 * producers publish domain events, each face subscribes per client with a filter.
 */
export interface LiveBus {
  /** Publishes an event to every subscriber of this process (and of the others, with Redis). */
  publish(e: LiveEvent): void;
  /** Subscribes `listener` to the events `filter` selects. Returns the unsubscribe. */
  subscribe(filter: LiveFilter, listener: LiveListener): () => void;
  /** Number of subscriptions in this process. */
  readonly subscriptions: number;
  close(): Promise<void>;
}

/** The in-process bus: publish delivers at once to the matching subscribers of this process. */
export class LocalLiveBus implements LiveBus {
  private readonly index = new SubscriberIndex<LiveListener>();

  constructor(private readonly onListenerError: (e: unknown) => void = () => undefined) {}

  publish(e: LiveEvent): void {
    this.dispatch(e);
  }

  /** Delivers to this process's subscribers only (the Redis bus calls this for remote events). */
  dispatch(e: LiveEvent): void {
    this.index.forEachMatch(e, (l) => {
      try {
        l(e);
      } catch (err) {
        this.onListenerError(err);
      }
    });
  }

  subscribe(filter: LiveFilter, listener: LiveListener): () => void {
    // a fresh wrapper per subscription, so one listener can hold several filters
    return this.index.add((e) => listener(e), filter);
  }

  get subscriptions(): number {
    return this.index.size;
  }

  async close(): Promise<void> {}
}
