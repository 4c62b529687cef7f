import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import Koa, { type Middleware } from "koa";
import { accessLog } from "../api/http/access-log";
import { errorMiddleware } from "../api/http/error-middleware";
import { canonicalPathMiddleware } from "../api/http/canonical-path";
import { faceMarker, faceSelector, onlyUnder, renderers, type FaceMount } from "../api/http/faces";
import { requestId } from "../api/http/request-id";
import { securityHeaders, type SecurityHeaderOptions } from "../api/http/security-headers";
import { withPublicOrigin } from "../api/http/server-origin";
import { drainGate } from "../api/http/drain-gate";
import { requestMetrics } from "../api/http/request-metrics";
import { requestTrace, traceUpgrade } from "../api/http/request-trace";
import type { Config } from "../config/config";
import { AppError } from "../errors";
import type { Logger } from "../log/logger";
import type { Metrics } from "../observability/metrics";
import type { SpanSink } from "../observability/span-sink";
import type { Face } from "./faces/face";

/**
/** What operations add to the request pipeline; each part is left out when absent. */
export interface PipelineOperations {
  /** Request counts and latencies (left out with METRICS=off). */
  metrics?: Metrics;
  /** The trace export; without it only requests that carry a `traceparent` are traced. */
  spans?: SpanSink;
  /** True while the service shuts down: new requests get 503 with Retry-After. */
  draining?: () => boolean;
  /** What the browser security headers allow besides the service's own origin. */
  securityHeaders?: SecurityHeaderOptions;
  /** `PUBLIC_URL`: the origin of the links the faces write, instead of the request's Host (server-origin.ts). */
  publicUrl?: string;
}

/**
 * The request pipeline every face shares (docs/design.md "The request pipeline"): browser security
 * headers -> request id (the access log and the metrics told of each request's end) -> trace context ->
 * face selection -> the face's error renderer -> canonical path (400 for a malformed one) -> the drain of a shutdown -> `gates` (auth, then
 * rate limit) -> the faces' routes -> 404.
 */
export function buildHttpApp(
  log: Logger,
  faces: readonly Face[],
  gates: readonly Middleware[] = [],
  ops: PipelineOperations = {},
): Koa {
  const app = new Koa();
  app.proxy = false;
  const mounts = faces.map((f) => f.mount).filter((m): m is FaceMount => m !== undefined);
  app.use(securityHeaders(ops.securityHeaders));
  if (ops.publicUrl) app.use(withPublicOrigin(ops.publicUrl));
  app.use(requestId([accessLog(log), ...(ops.metrics ? [requestMetrics(ops.metrics)] : [])]));
  app.use(requestTrace(ops.spans));
  const markFace = faceMarker(mounts);
  // the face by the path as sent renders a refused path; the canonical path decides the rest
  app.use(faceSelector(markFace));
  app.use(errorMiddleware(log, renderers(mounts)));
  app.use(canonicalPathMiddleware(markFace));
  if (ops.draining) app.use(drainGate(ops.draining));
  for (const g of gates) app.use(g);
  for (const f of faces) {
    const routes = chain(
      // a router's middleware expects the router's context members, which its own routes() adds
      f.routers.flatMap((r): Middleware[] => [
        r.routes() as Middleware,
        r.allowedMethods({
          throw: true,
          methodNotAllowed: () => new AppError("MethodNotAllowed", "Method not allowed on this resource"),
          notImplemented: () => new AppError("OperationNotSupported", "Method not implemented"),
        }) as Middleware,
      ]),
    );
    app.use(f.mount ? onlyUnder(f.mount.prefixes, routes) : routes);
  }
  app.use(async () => {
    throw new AppError("ResourceNotFound", "No such resource");
  });
  // errors past the error middleware (a response stream failing mid-way) go to the log
  app.on("error", (err: unknown) => log.warn("response error", { error: String(err) }));
  return app;
}

/** The middlewares in order, as one (what app.use of each would do). */
function chain(mws: readonly Middleware[]): Middleware {
  return (ctx, next) => {
    const run = (i: number): Promise<unknown> =>
      i === mws.length ? next() : Promise.resolve(mws[i](ctx, () => run(i + 1)));
    return run(0);
  };
}

/** Listens on the configured address; resolves with the server and its base URL. */
export async function listen(config: Config, app: Koa): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.server.port, config.server.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${port}` };
}

/** Stops accepting connections and waits for in-flight requests. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** Routes the server's WebSocket upgrades to the faces by path; any other path is refused with 404. */
export function routeUpgrades(server: http.Server, faces: readonly Face[], spans?: SpanSink): void {
  const byPath = new Map(faces.flatMap((f) => f.upgrades ?? []).map((u) => [u.path, u]));
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const target = byPath.get(path);
    if (target) return traceUpgrade(req, socket, path, spans, () => target.handle(req, socket, head));
    socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  });
}

/** Counts the requests the server is answering (a request ends when its response is sent or aborted). */
export function countInFlight(server: http.Server): () => number {
  let n = 0;
  server.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    n++;
    res.once("close", () => n--);
  });
  return () => n;
}
