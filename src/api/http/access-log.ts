import type { Context, Next } from "koa";
import type { Logger } from "../../log/logger";
import { requestOf } from "./request-context";

/**
 * One log line per request (method, path, status, latency, request id, face, principal), written
 * when the response is done: at `info`, or `warn` for a 5xx.
 */
export function accessLog(log: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } finally {
      const r = requestOf(ctx);
      const fields = {
        requestId: r.id,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Date.now() - r.startedAt,
        face: r.face,
        ...(r.principal ? { principal: r.principal.id } : {}),
      };
      if (ctx.status >= 500) log.warn("request", fields);
      else log.info("request", fields);
    }
  };
}
