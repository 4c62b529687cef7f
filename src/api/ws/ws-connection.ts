import { randomUUID } from "node:crypto";
import type WebSocket from "ws";
import { AppError, ERROR_KINDS, toAppError } from "../../errors";
import type { LiveBus } from "../../events/live-bus";
import type { LiveChannel, LiveEvent } from "../../events/live-event";
import type { LiveReplay } from "../../events/live-replay";
import { OutboundQueue } from "./outbound-queue";
import { eventMessage } from "./ws-messages";
import { parseCommand, type ClientCommand, type SubscribeCommand } from "./ws-protocol";

/** Close code of a socket whose reader fell too far behind (docs/graphql-and-websocket.md). */
export const CLOSE_SLOW_CONSUMER = 4008;
/** Bytes the socket may hold unsent before messages wait in the bounded queue instead. */
const HIGH_WATER_BYTES = 64 * 1024;
/** Most events one resume replays. */
export const REPLAY_LIMIT = 1000;

/** Limits of one connection. */
export interface ConnectionLimits {
  maxSubscriptions: number;
  queueMessages: number;
  messagesPerSecond: number;
}

interface Subscription {
  id: string;
  /** Channel -> its removal from the bus. */
  cancel: Map<LiveChannel, () => void>;
  /** Live events held back while the history is replayed. */
  held?: LiveEvent[];
}

/** Body of an event message without the subscription id, rendered once per event for every socket. */
const rendered = new WeakMap<LiveEvent, string>();

/**
 * One client of `/ws` (traffic-service-interface.md §6): its subscriptions on the live bus, its
 * bounded outbound queue, its message rate and its liveness for the heartbeat.
 */
export class WsConnection {
  alive = true;
  private readonly subs = new Map<string, Subscription>();
  private readonly queue: OutboundQueue;
  private tokens: number;
  private refilled = Date.now();
  private warnedAt = 0;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly tenant: string,
    private readonly bus: LiveBus,
    private readonly replay: LiveReplay,
    private readonly limits: ConnectionLimits,
  ) {
    this.queue = new OutboundQueue(limits.queueMessages);
    this.tokens = 2 * limits.messagesPerSecond;
    ws.on("message", (data, isBinary) => this.onMessage(data, isBinary));
    ws.on("pong", () => (this.alive = true));
    ws.on("close", () => this.dispose());
  }

  /** Sends a JSON message (bounded: a socket that cannot keep up is closed with 4008). */
  send(msg: unknown, coalesceKey?: string): void {
    this.sendText(JSON.stringify(msg), coalesceKey);
  }

  /** Sends `{type:"error", error:{code, message}}` for an AppError. */
  sendError(e: AppError, id?: string): void {
    this.send({
      type: "error",
      ...(id ? { id } : {}),
      error: { code: ERROR_KINDS[e.kind].code, message: e.message },
    });
  }

  /** Closes the socket (code and reason are shown to the client) and drops its subscriptions. */
  close(code: number, reason: string): void {
    this.dispose();
    this.ws.close(code, reason);
  }

  private sendText(text: string, coalesceKey?: string): void {
    if (this.closed) return;
    if (this.queue.size === 0 && this.ws.bufferedAmount < HIGH_WATER_BYTES) {
      this.ws.send(text, this.onSent);
      return;
    }
    if (!this.queue.push(text, coalesceKey)) {
      this.close(CLOSE_SLOW_CONSUMER, `Too slow: ${this.limits.queueMessages} messages unread`);
    }
  }

  private readonly onSent = (err?: Error): void => {
    if (err || this.closed) return;
    while (this.queue.size > 0 && this.ws.bufferedAmount < HIGH_WATER_BYTES) {
      this.ws.send(this.queue.shift() as string, this.onSent);
    }
  };

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    this.alive = true;
    if (!this.allowMessage()) return;
    if (isBinary) {
      return this.sendError(new AppError("InvalidRequest", "Binary frames are not accepted: send JSON text"));
    }
    let cmd: ClientCommand;
    try {
      cmd = parseCommand(data.toString());
    } catch (e) {
      return this.sendError(toAppError(e));
    }
    if (cmd.type === "ping") return this.send({ type: "pong", timestamp: new Date().toISOString() });
    if (cmd.type === "unsubscribe") return this.unsubscribe(cmd.id, cmd.channels);
    this.subscribe(cmd);
  }

  /** Token bucket of client messages; over it, one error a second and the message is dropped. */
  private allowMessage(): boolean {
    const now = Date.now();
    const rate = this.limits.messagesPerSecond;
    this.tokens = Math.min(2 * rate, this.tokens + ((now - this.refilled) / 1000) * rate);
    this.refilled = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    if (now - this.warnedAt >= 1000) {
      this.warnedAt = now;
      this.sendError(
        new AppError("TooManyRequests", `At most ${rate} messages per second: messages are dropped`),
      );
    }
    return false;
  }

  private subscribe(cmd: SubscribeCommand): void {
    const id = cmd.id ?? randomUUID();
    if (this.subs.has(id)) {
      return this.sendError(
        new AppError("InvalidRequest", `Subscription ${id} exists: unsubscribe it first`),
        id,
      );
    }
    if (this.subs.size >= this.limits.maxSubscriptions) {
      return this.sendError(
        new AppError(
          "InvalidRequest",
          `At most ${this.limits.maxSubscriptions} subscriptions per connection`,
        ),
        id,
      );
    }
    const sub: Subscription = { id, cancel: new Map(), held: cmd.since !== undefined ? [] : undefined };
    this.subs.set(id, sub);
    const filters = cmd.channels.map((channel) => ({
      tenant: this.tenant,
      channel,
      keys: channel === "traffic" ? cmd.zones : channel === "accidents" ? cmd.severity : undefined,
    }));
    for (const f of filters)
      sub.cancel.set(
        f.channel,
        this.bus.subscribe(f, (e) => this.deliver(sub, e)),
      );
    this.send({
      type: "subscribed",
      id,
      channels: cmd.channels,
      zones: cmd.zones ?? null,
      severity: cmd.severity ?? null,
      ...(cmd.since !== undefined ? { since: new Date(cmd.since).toISOString() } : {}),
    });
    if (cmd.since !== undefined) void this.resume(sub, filters, cmd.since);
  }

  /** Replays the history since `since`, then the live events that came meanwhile (without repeats). */
  private async resume(
    sub: Subscription,
    filters: Parameters<LiveReplay>[0][],
    since: number,
  ): Promise<void> {
    let count = 0;
    let truncated = false;
    const seen = new Set<string>();
    try {
      const results = await Promise.all(filters.map((f) => this.replay(f, since, REPLAY_LIMIT)));
      const events = results.flatMap((r) => r.events).sort((a, b) => a.at.localeCompare(b.at));
      truncated = results.some((r) => r.truncated);
      for (const e of events) {
        if (!this.subs.has(sub.id)) return;
        seen.add(identity(e));
        this.deliverNow(sub, { ...e, replay: true });
        count++;
      }
    } catch (e) {
      this.sendError(toAppError(e), sub.id);
    }
    const held = sub.held ?? [];
    sub.held = undefined;
    this.send({ type: "replayed", id: sub.id, count, truncated });
    for (const e of held) if (!seen.has(identity(e))) this.deliverNow(sub, e);
  }

  private deliver(sub: Subscription, e: LiveEvent): void {
    if (sub.held) sub.held.push(e);
    else this.deliverNow(sub, e);
  }

  private deliverNow(sub: Subscription, e: LiveEvent): void {
    let body = e.replay ? undefined : rendered.get(e);
    if (body === undefined) {
      body = JSON.stringify(eventMessage(e));
      if (!e.replay) rendered.set(e, body);
    }
    const key = e.channel === "traffic" ? `${sub.id}\u0000${e.data.zoneId}` : undefined;
    this.sendText(`{"subscription":${JSON.stringify(sub.id)},${body.slice(1)}`, key);
  }

  /** Ends subscription `id` (or every one); with `channels`, only those channels of it. */
  private unsubscribe(id: string | undefined, channels: LiveChannel[] | undefined): void {
    if (id !== undefined && !this.subs.has(id)) {
      return this.sendError(new AppError("ResourceNotFound", `No subscription ${id}`), id);
    }
    const ended: string[] = [];
    for (const s of id !== undefined ? [this.subs.get(id) as Subscription] : [...this.subs.values()]) {
      for (const c of channels ?? [...s.cancel.keys()]) {
        s.cancel.get(c)?.();
        s.cancel.delete(c);
      }
      if (s.cancel.size === 0) {
        this.subs.delete(s.id);
        ended.push(s.id);
      }
    }
    this.send({ type: "unsubscribed", ids: ended, ...(channels ? { channels } : {}) });
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.subs.values()) for (const c of s.cancel.values()) c();
    this.subs.clear();
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
