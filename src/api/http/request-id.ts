import { randomUUID } from "node:crypto";
import type { Context, Next } from "koa";
import type { RequestContext } from "./request-context";

/**
 * What is told of every request: `start` when it comes in, `end` with its duration once its final status is
 * set (the scope runs outside the error middleware). The access log and the metrics are such observers.
 */
export interface RequestObserver {
  start?(ctx: Context): void;
  end(ctx: Context, request: RequestContext, seconds: number): void;
}

/**
 * First middleware: a fresh request id (`X-Request-Id` on every response), the request context, and the
 * observers told of the request's start and end. One layer serves them all, so that an observer costs a
 * function call per request, not a layer of the middleware chain.
 */
export function requestId(observers: readonly RequestObserver[] = []) {
  const starts = observers.filter((o) => o.start !== undefined);
  return async (ctx: Context, next: Next): Promise<void> => {
    const t0 = performance.now();
    const request: RequestContext = { id: randomUUID(), face: "http" };
    (ctx.state as { request: RequestContext }).request = request;
    ctx.set("X-Request-Id", request.id);
    for (const o of starts) o.start!(ctx);
    try {
      await next();
    } finally {
      const seconds = (performance.now() - t0) / 1000;
      for (const o of observers) o.end(ctx, request, seconds);
    }
  };
}
