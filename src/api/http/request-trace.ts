import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Context, Next } from "koa";
import type { SpanSink } from "../../observability/span-sink";
import {
  newSpanId,
  newTraceId,
  parseTraceparent,
  runInTrace,
  type TraceContext,
} from "../../observability/trace-context";
import { methodLabelOf, requestOf, routeTemplateOf } from "./request-context";

/**
 * The W3C trace context of every face (docs/operations.md "Traces"): a request's `traceparent` makes it a
 * span of the caller's trace, and the work it causes (notifications, alert webhooks) carries that trace on.
 * With a span sink (the OTLP export) every request is a span, a new trace when none came in. Without a
 * `traceparent` and without a sink, nothing runs: no trace costs nothing.
 */
export function requestTrace(sink?: SpanSink) {
  return (ctx: Context, next: Next): Promise<void> => {
    const header = ctx.get("traceparent");
    const incoming = header ? parseTraceparent(header) : undefined;
    if (!incoming && !sink) return next();
    const trace = traceOf(incoming);
    const startMs = Date.now();
    return runInTrace(trace, async () => {
      try {
        await next();
      } finally {
        const route = routeTemplateOf(ctx);
        const method = methodLabelOf(ctx);
        sink?.record({
          ...trace,
          name: `${method} ${route}`,
          startMs,
          endMs: Date.now(),
          attributes: {
            "http.request.method": method,
            ...(method === ctx.method ? {} : { "http.request.method_original": ctx.method }),
            "http.route": route,
            "http.response.status_code": ctx.status,
            "citygraph.face": requestOf(ctx).face,
            "citygraph.request_id": requestOf(ctx).id,
          },
          error: ctx.status >= 500,
        });
      }
    });
  };
}

/**
 * The trace of a WebSocket upgrade (`/ws`, graphql-ws on `/graphql`): the handshake runs in the caller's trace
 * when the upgrade request carries a `traceparent`, and with a span sink the connection is one span, from the
 * upgrade to the socket's close. Without either, `handle` runs as it is.
 */
export function traceUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  route: string,
  sink: SpanSink | undefined,
  handle: () => void,
): void {
  const header = req.headers.traceparent;
  const incoming = typeof header === "string" ? parseTraceparent(header) : undefined;
  if (!incoming && !sink) return handle();
  const trace = traceOf(incoming);
  const startMs = Date.now();
  if (sink)
    socket.once("close", () =>
      sink.record({
        ...trace,
        name: `GET ${route}`,
        startMs,
        endMs: Date.now(),
        attributes: {
          "http.request.method": "GET",
          "http.route": route,
          "network.protocol.name": "websocket",
        },
        error: false,
      }),
    );
  runInTrace(trace, handle);
}

/** This service's span of the caller's trace, or of a new trace when none came in. */
function traceOf(incoming: ReturnType<typeof parseTraceparent>): TraceContext {
  return {
    traceId: incoming?.traceId ?? newTraceId(),
    spanId: newSpanId(),
    parentSpanId: incoming?.parentSpanId,
    flags: incoming?.flags ?? "01",
  };
}
