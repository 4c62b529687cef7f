import type { LiveBus } from "../../events/live-bus";
import type { LiveEvent } from "../../events/live-event";
import type { LiveFilter } from "../../events/subscriber-index";
import { EventStream } from "./event-stream";

/**
 * The source of a GraphQL subscription: the live events one filter selects. The WebSocket fan-out
 * (subscription-fanout.ts) reads `filter` and files one group of subscribers on the bus; iterated as
 * graphql-js `subscribe` does, it streams the events through a bounded buffer (a reader `max` events
 * behind ends the stream; traffic updates of one zone coalesce while they wait).
 */
export class LiveSource implements AsyncIterable<LiveEvent> {
  constructor(
    readonly filter: LiveFilter,
    private readonly bus: LiveBus,
    private readonly max: number,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<LiveEvent> {
    let cancel = () => undefined as void;
    const stream = new EventStream<LiveEvent>(
      this.max,
      () => cancel(),
      () => undefined,
      (e) => (e.channel === "traffic" ? e.data.zoneId : undefined),
    );
    cancel = this.bus.subscribe(this.filter, (e) => stream.push(e));
    return stream;
  }
}
