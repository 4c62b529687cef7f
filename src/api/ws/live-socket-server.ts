import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { ERROR_KINDS, toAppError } from "../../errors";
import type { LiveBus } from "../../events/live-bus";
import type { LiveReplay } from "../../events/live-replay";
import type { LiveAuth, SocketSession } from "../http/live-auth";
import { closeCodeOf } from "../http/socket-auth";
import { WsConnection, type ConnectionLimits } from "./ws-connection";

/** What `/ws` needs. */
export interface LiveSocketOptions {
  bus: LiveBus;
  replay: LiveReplay;
  auth: LiveAuth;
  limits: ConnectionLimits;
  heartbeatMs: number;
  maxFrameBytes: number;
  log: (level: "debug" | "warn", msg: string, fields?: object) => void;
}

/**
 * The WebSocket face at `/ws` (docs/graphql-and-websocket.md; protocol in
 * docs/graphql-and-websocket.md): authenticates the upgrade (token in `?token=` or the Authorization
 * header; failures close with 4401/4403), serves each socket as a {@link WsConnection}, pings every
 * socket each heartbeat and drops those that did not answer the previous ping.
 */
export class LiveSocketServer {
  private readonly wss: WebSocketServer;
  private readonly connections = new Map<WebSocket, WsConnection>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly opts: LiveSocketOptions) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: opts.maxFrameBytes,
      perMessageDeflate: false,
    });
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Number of open sockets. */
  get size(): number {
    return this.connections.size;
  }

  /** Takes over an HTTP upgrade request for `/ws`. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => undefined);
    this.opts.auth.upgrade(req).then(
      (session) => {
        // the slot goes back however the connection ends, a handshake that fails included
        if (session.release) socket.once("close", session.release);
        this.accept(req, socket, head, session);
      },
      (err: unknown) => this.accept(req, socket, head, undefined, err),
    );
  }

  private accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    session?: SocketSession,
    err?: unknown,
  ): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on("error", (e) => this.opts.log("debug", "websocket error", { error: e.message }));
      if (!session) {
        const e = toAppError(err);
        ws.close(closeCodeOf(e), e.message.slice(0, 120));
        return;
      }
      const conn = new WsConnection(ws, "", this.opts.bus, this.opts.replay, this.opts.limits);
      this.connections.set(ws, conn);
      let expiry: NodeJS.Timeout | undefined;
      if (session.expiresAt !== undefined) {
        expiry = setTimeout(
          () => conn.close(ERROR_KINDS.Unauthorized.close, "Token expired"),
          Math.max(0, session.expiresAt - Date.now()),
        );
        expiry.unref();
      }
      ws.on("close", () => {
        if (expiry) clearTimeout(expiry);
        session.release?.();
        this.connections.delete(ws);
      });
    });
  }

  /** Drops the sockets that missed the last ping, pings the others. */
  private beat(): void {
    for (const [ws, conn] of this.connections) {
      if (!conn.alive) {
        ws.terminate();
        continue;
      }
      conn.alive = false;
      ws.ping();
    }
  }

  /** Closes every socket with 1001 (going away) and stops the heartbeat. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const conn of this.connections.values()) conn.close(1001, "Server shutting down");
    // a peer that does not answer the close handshake is cut off after a second
    const grace = setTimeout(() => {
      for (const ws of this.wss.clients) ws.terminate();
    }, 1000);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    clearTimeout(grace);
  }
}
