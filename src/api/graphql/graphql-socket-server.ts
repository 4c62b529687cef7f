import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import {
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
  specifiedRules,
} from "graphql";
import { CloseCode, handleProtocols, makeServer } from "graphql-ws";
import { WebSocketServer, type WebSocket } from "ws";
import { AppError, toAppError } from "../../errors";
import type { LiveAuth, SocketSession } from "../http/live-auth";
import { closeCodeOf } from "../http/socket-auth";
import type { Principal } from "../http/request-context";
import { DocumentCache } from "./document-cache";
import { formatGraphqlError } from "./graphql-errors";
import { parseLimited } from "./parse-limited";

/** Close code of a subscriber whose reader fell too far behind (as on `/ws`). */
const CLOSE_SLOW_CONSUMER = 4008;

/** What the GraphQL WebSocket endpoint needs. */
export interface GraphqlSocketOptions {
  schema: GraphQLSchema;
  rules: readonly ValidationRule[];
  maxDepth: number;
  maxFrameBytes: number;
  heartbeatMs: number;
  auth: LiveAuth;
  /** The resolvers' context of one subscription. */
  context(principal: Principal | undefined, closeSlow: () => void): Record<string, unknown>;
}

interface Extra {
  socket: WebSocket;
  session?: SocketSession;
  alive: boolean;
}

/**
 * GraphQL subscriptions over WebSocket at `/graphql` (interface spec §6; protocol graphql-transport-ws
 * of graphql-ws): the token comes in the connection parameter `authorization` ("Bearer <token>");
 * a bad token closes the socket with 4401 (4403 for a missing permission), an expired one too.
 * Operations are parsed and validated with the same limits as over HTTP.
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
    const docs = new DocumentCache(parseLimited(o.maxDepth));
    const server = makeServer<Record<string, unknown> | undefined, Extra>({
      schema: o.schema,
      onConnect: async (ctx) => {
        try {
          const session = await o.auth.connection(ctx.connectionParams);
          ctx.extra.session = session;
          if (session.expiresAt !== undefined) {
            const t = setTimeout(
              () => ctx.extra.socket.close(4401, "Token expired"),
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
      onSubscribe: (ctx, _id, payload) => {
        let document;
        try {
          document = docs.parse(payload.query);
        } catch (e) {
          return [formatGraphqlError(e instanceof GraphQLError ? e : new GraphQLError(String(e)))];
        }
        const errors = docs.validate(o.schema, document, [...specifiedRules, ...o.rules]);
        if (errors.length) return errors.map((e) => formatGraphqlError(e));
        const op = getOperationAST(document, payload.operationName);
        const principal = principalOf(ctx.extra);
        if (op?.operation === "mutation" && (!principal || !o.auth.mayWrite(principal))) {
          return [
            formatGraphqlError(
              new GraphQLError("Forbidden", {
                originalError: new AppError("AccessDenied", "Mutations need the operator role"),
              }),
            ),
          ];
        }
        const socket = ctx.extra.socket;
        return {
          schema: o.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: o.context(principalOf(ctx.extra), () =>
            socket.close(CLOSE_SLOW_CONSUMER, "Too slow: subscription events unread"),
          ),
        };
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatGraphqlError(e).toJSON()),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors
          ? { ...result, errors: result.errors.map((e) => formatGraphqlError(e).toJSON()) }
          : undefined,
    });
    this.wss.on("connection", (socket: WebSocket, request: IncomingMessage) => {
      const extra: Extra = { socket, alive: true };
      this.sockets.set(socket, extra);
      socket.on("error", () => undefined);
      socket.on("pong", () => (extra.alive = true));
      const closed = server.opened(
        {
          protocol: socket.protocol,
          send: (data) =>
            new Promise<void>((resolve, reject) => {
              if (socket.readyState !== socket.OPEN) return resolve();
              socket.send(data, (err) => (err ? reject(err) : resolve()));
            }),
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
      void request;
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

function principalOf(extra: Extra): Principal | undefined {
  return extra.session?.principal;
}
