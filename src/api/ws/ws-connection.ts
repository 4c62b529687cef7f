import type WebSocket from "ws";
import { AppError, toAppError } from "../../errors";
import type { LiveBus } from "../../events/live-bus";
import type { LiveChannel } from "../../events/live-event";
import type { LiveReplay } from "../../events/live-replay";
import { SocketOutbox } from "../http/socket-outbox";
import { MessageRate } from "./message-rate";
import { errorMessage } from "./ws-messages";
import { parseCommand, type ClientCommand, type SubscribeCommand } from "./ws-protocol";
import { WsSubscription } from "./ws-subscription";

/** Limits of one connection. */
export interface ConnectionLimits {
  maxSubscriptions: number;
  queueMessages: number;
  messagesPerSecond: number;
  /** Told when a slow reader's queue overflows (a metric). */
  onDrop?: () => void;
}

/**
 * One client of `/ws` (docs/graphql-and-websocket.md): its commands, its subscriptions on the live
 * bus, its bounded outbox, its message rate and its liveness for the heartbeat.
 */
export class WsConnection {
  alive = true;
  private readonly subs = new Map<string, WsSubscription>();
  private readonly out: SocketOutbox;
  private readonly rate: MessageRate;
  /** Numbers the subscriptions a client does not name: ids need only be unique per connection. */
  private generated = 0;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly tenant: string,
    private readonly bus: LiveBus,
    private readonly replay: LiveReplay,
    private readonly limits: ConnectionLimits,
  ) {
    this.out = new SocketOutbox(ws, limits.queueMessages, limits.onDrop);
    this.rate = new MessageRate(limits.messagesPerSecond);
    ws.on("message", (data, isBinary) => this.onMessage(data, isBinary));
    ws.on("pong", () => (this.alive = true));
    ws.on("close", () => this.dispose());
  }

  /** Closes the socket (code and reason are shown to the client) and drops its subscriptions. */
  close(code: number, reason: string): void {
    this.dispose();
    this.out.close(code, reason);
  }

  private send(msg: unknown): void {
    this.out.send(JSON.stringify(msg));
  }

  private sendError(e: AppError, id?: string): void {
    this.send(errorMessage(e, id));
  }

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    this.alive = true;
    const allowed = this.rate.take();
    if (allowed === "warn") {
      const perSecond = this.limits.messagesPerSecond;
      this.sendError(
        new AppError("TooManyRequests", `At most ${perSecond} messages per second: messages are dropped`),
      );
    }
    if (allowed !== "allow") return;
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

  private subscribe(cmd: SubscribeCommand): void {
    const id = cmd.id ?? this.nextId();
    if (this.subs.has(id)) {
      return this.sendError(
        new AppError("InvalidRequest", `Subscription ${id} exists: unsubscribe it first`),
        id,
      );
    }
    if (this.subs.size >= this.limits.maxSubscriptions) {
      const max = this.limits.maxSubscriptions;
      return this.sendError(
        new AppError("InvalidRequest", `At most ${max} subscriptions per connection`),
        id,
      );
    }
    const sub = new WsSubscription(id, this.out);
    this.subs.set(id, sub);
    const filters = cmd.channels.map((channel) => ({
      tenant: this.tenant,
      channel,
      keys: channel === "traffic" ? cmd.zones : channel === "accidents" ? cmd.severity : undefined,
    }));
    // the acknowledgement comes before any event (or replay) of the subscription
    this.send({
      type: "subscribed",
      id,
      channels: cmd.channels,
      zones: cmd.zones ?? null,
      severity: cmd.severity ?? null,
      ...(cmd.since !== undefined ? { since: new Date(cmd.since).toISOString() } : {}),
    });
    sub.start(this.bus, filters, this.replay, cmd.since);
  }

  /** `sub-1`, `sub-2`, ...: the same ids on every connection, so that their messages share Buffers. */
  private nextId(): string {
    let id: string;
    do id = `sub-${++this.generated}`;
    while (this.subs.has(id));
    return id;
  }

  /** Ends subscription `id` (or every one); with `channels`, only those channels of it. */
  private unsubscribe(id: string | undefined, channels: LiveChannel[] | undefined): void {
    if (id !== undefined && !this.subs.has(id)) {
      return this.sendError(new AppError("ResourceNotFound", `No subscription ${id}`), id);
    }
    const ended: string[] = [];
    for (const s of id !== undefined ? [this.subs.get(id) as WsSubscription] : [...this.subs.values()]) {
      if (s.end(channels)) {
        this.subs.delete(s.id);
        ended.push(s.id);
      }
    }
    this.send({ type: "unsubscribed", ids: ended, ...(channels ? { channels } : {}) });
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.subs.values()) s.end();
    this.subs.clear();
  }
}
