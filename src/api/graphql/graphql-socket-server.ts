import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { GraphQLSchema, ValidationRule } from "graphql";
import { CloseCode, handleProtocols, makeServer } from "graphql-ws";
import { WebSocketServer, type WebSocket } from "ws";
import { ERROR_KINDS, toAppError } from "../../errors";
import type { LiveBus } from "../../events/live-bus";
import type { LiveAuth } from "../http/live-auth";
import type { Principal } from "../http/request-context";
import { closeCodeOf } from "../http/socket-auth";
import { SocketOutbox } from "../http/socket-outbox";
import { formatGraphqlError } from "./graphql-errors";
import { operationPreparer, type SocketConnection } from "./socket-operation";
import { SubscriptionFanout, type Subscriber } from "./subscription-fanout";

/** What the GraphQL WebSocket endpoint needs. */
export interface GraphqlSocketOptions {
  schema: GraphQLSchema;
  rules: readonly ValidationRule[];
  maxDepth: number;
  /** GRAPHQL_MAX_ALIASES. */
  maxAliases?: number;
  /** GRAPHQL_TIMEOUT of queries and mutations. */
  timeoutMs?: number;
  maxFrameBytes: number;
  heartbeatMs: number;
  /** Subscriptions one connection may hold (as on `/ws`). */
  maxSubscriptions: number;
  /** Messages waiting for a slow reader before its socket is closed with 4008. */
  queueMessages: number;
  /** Told when a slow reader's queue overflows (a metric). */
  onDrop?: () => void;
  auth: LiveAuth;
  bus: LiveBus;
  /** The resolvers' context of one operation (or of one event of a subscription). */
  context(principal: Principal | undefined): Record<string, unknown>;
  onError(e: unknown): void;
}

interface Extra extends SocketConnection {
  socket: WebSocket;
  /** The upgrade request, whose tenant the connection's authentication judges. */
  request: IncomingMessage;
  alive: boolean;
}

/**
 * GraphQL subscriptions over WebSocket at `/graphql` (docs/graphql-and-websocket.md; protocol graphql-transport-ws
 * of graphql-ws): the token comes in the connection parameter `authorization` ("Bearer <token>");
 * a bad token closes the socket with 4401 (4403 for a missing permission), an expired one too.
 * Operations are parsed and validated with the same limits as over HTTP; subscriptions are fanned out
 * per operation (subscription-fanout.ts), at most `maxSubscriptions` per connection. Every message
 * leaves through the socket's bounded outbox.
 */
export class GraphqlSocketServer {
  private readonly wss: WebSocketServer;
  private readonly sockets = new Map<WebSocket, Extra>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly o: GraphqlSocketOptions) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: o.maxFrameBytes,
      perMessageDeflate: false,
      handleProtocols: (protocols) => handleProtocols(protocols),
    });
    const prepare = operationPreparer(o);
    const fanout = new SubscriptionFanout(o.bus, () => o.context(undefined), o.onError);
    const server = makeServer<Record<string, unknown> | undefined, Extra>({
      schema: o.schema,
      // the context of a socket subscription is its subscriber (set below): the fan-out executes it
      subscribe: (args) => fanout.join(args, args.contextValue as Subscriber),
      onConnect: async (ctx) => {
        try {
          const session = await o.auth.connection(ctx.connectionParams, ctx.extra.request);
          ctx.extra.principal = session.principal;
          if (session.release) ctx.extra.socket.once("close", session.release);
          if (session.expiresAt !== undefined) {
            const t = setTimeout(
              () => ctx.extra.socket.close(ERROR_KINDS.Unauthorized.close, "Token expired"),
              Math.max(0, session.expiresAt - Date.now()),
            );
            t.unref();
            ctx.extra.socket.once("close", () => clearTimeout(t));
          }
          return true;
        } catch (e) {
          const err = toAppError(e);
          ctx.extra.socket.close(closeCodeOf(err), err.message.slice(0, 120));
          return false;
        }
      },
      onSubscribe: (ctx, id, payload) => prepare(ctx.extra, id, payload),
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatGraphqlError(e).toJSON()),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors
          ? { ...result, errors: result.errors.map((e) => formatGraphqlError(e).toJSON()) }
          : undefined,
    });
    this.wss.on("connection", (socket: WebSocket, request: IncomingMessage) => {
      const extra: Extra = {
        socket,
        request,
        out: new SocketOutbox(socket, o.queueMessages, o.onDrop),
        alive: true,
        subscriptions: new Set(),
      };
      this.sockets.set(socket, extra);
      socket.on("error", () => undefined);
      socket.on("pong", () => (extra.alive = true));
      const closed = server.opened(
        {
          protocol: socket.protocol,
          send: (data) => extra.out.send(data),
          close: (code, reason) => socket.close(code, reason),
          onMessage: (cb) =>
            socket.on("message", (data, isBinary) => {
              extra.alive = true;
              if (isBinary) return socket.close(CloseCode.BadRequest, "Binary frames are not accepted");
              cb(String(data)).catch(() =>
                socket.close(CloseCode.InternalServerError, "Internal server error"),
              );
            }),
        },
        extra,
      );
      socket.once("close", (code, reason) => {
        this.sockets.delete(socket);
        void closed(code, String(reason));
      });
    });
    this.heartbeat = setInterval(() => this.beat(), o.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Takes over an HTTP upgrade request for `/graphql`. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => undefined);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req));
  }

  get size(): number {
    return this.sockets.size;
  }

  private beat(): void {
    for (const [ws, extra] of this.sockets) {
      if (!extra.alive) {
        ws.terminate();
        continue;
      }
      extra.alive = false;
      ws.ping();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const ws of this.sockets.keys()) ws.close(1001, "Server shutting down");
    const grace = setTimeout(() => {
      for (const ws of this.wss.clients) ws.terminate();
    }, 1000);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    clearTimeout(grace);
  }
}
