import { randomUUID } from "node:crypto";
import type { Context, Next } from "koa";
import type { RequestContext } from "./request-context";

/** First middleware: a fresh request id (`X-Request-Id` on every response) and the request context. */
export function requestId() {
  return async (ctx: Context, next: Next): Promise<void> => {
    const request: RequestContext = { id: randomUUID(), face: "http", startedAt: Date.now() };
    (ctx.state as { request: RequestContext }).request = request;
    ctx.set("X-Request-Id", request.id);
    await next();
  };
}
