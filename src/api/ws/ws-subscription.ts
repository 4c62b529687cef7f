import { toAppError } from "../../errors";
import type { LiveBus } from "../../events/live-bus";
import type { LiveChannel, LiveEvent } from "../../events/live-event";
import type { LiveReplay } from "../../events/live-replay";
import type { LiveFilter } from "../../events/subscriber-index";
import type { SocketOutbox } from "../http/socket-outbox";
import { errorMessage, eventFrame } from "./ws-messages";

/** Most events one resume replays. */
export const REPLAY_LIMIT = 1000;

/**
 * One subscription of a `/ws` connection: its filters on the live bus (one per channel), the delivery
 * of each event as the Buffer rendered for its id, and the resume from the history (`since`).
 */
export class WsSubscription {
  /** Channel -> its removal from the bus. */
  private readonly cancel = new Map<LiveChannel, () => void>();
  /** Live events held back while the history is replayed. */
  private held?: LiveEvent[];

  constructor(
    readonly id: string,
    private readonly out: SocketOutbox,
  ) {}

  /** Files the filters on the bus; with `since`, replays the history first (live events wait). */
  start(bus: LiveBus, filters: LiveFilter[], replay: LiveReplay, since?: number): void {
    if (since !== undefined) this.held = [];
    for (const f of filters) this.cancel.set(f.channel, bus.subscribe(f, this.deliver));
    if (since !== undefined) void this.resume(replay, filters, since);
  }

  /** Ends the given channels (all by default); true when none is left. */
  end(channels?: readonly LiveChannel[]): boolean {
    for (const c of channels ?? [...this.cancel.keys()]) {
      this.cancel.get(c)?.();
      this.cancel.delete(c);
    }
    return this.cancel.size === 0;
  }

  private readonly deliver = (e: LiveEvent): void => {
    if (this.held) this.held.push(e);
    else this.send(e);
  };

  private send(e: LiveEvent): void {
    const key = e.channel === "traffic" ? `${this.id}\u0000${e.data.zoneId}` : undefined;
    this.out.send(eventFrame(e, this.id), key);
  }

  /** Replays the history since `since`, then the live events that came meanwhile (without repeats). */
  private async resume(replay: LiveReplay, filters: LiveFilter[], since: number): Promise<void> {
    let count = 0;
    let truncated = false;
    const seen = new Set<string>();
    try {
      const results = await Promise.all(filters.map((f) => replay(f, since, REPLAY_LIMIT)));
      const events = results.flatMap((r) => r.events).sort((a, b) => a.at.localeCompare(b.at));
      truncated = results.some((r) => r.truncated);
      for (const e of events) {
        if (this.cancel.size === 0) return;
        seen.add(identity(e));
        this.send({ ...e, replay: true });
        count++;
      }
    } catch (e) {
      this.out.send(JSON.stringify(errorMessage(toAppError(e), this.id)));
    }
    const held = this.held ?? [];
    this.held = undefined;
    this.out.send(JSON.stringify({ type: "replayed", id: this.id, count, truncated }));
    for (const e of held) if (!seen.has(identity(e))) this.send(e);
  }
}

/** What makes two events the same for the replay's de-duplication. */
function identity(e: LiveEvent): string {
  const key =
    e.channel === "accidents"
      ? `${e.data.id}/${e.data.change}`
      : e.channel === "traffic"
        ? e.data.zoneId
        : e.data.stationId;
  return `${e.channel}/${key}/${e.at}`;
}
