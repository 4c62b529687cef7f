import type { Logger } from "../../log/logger";
import type { RequestObserver } from "./request-id";

/**
 * One log line per request (method, path, status, latency, request id, face, principal), written
 * when the response is done: at `info`, or `warn` for a 5xx.
 */
export function accessLog(log: Logger): RequestObserver {
  return {
    end(ctx, r, seconds) {
      const fields = {
        requestId: r.id,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(seconds * 1000),
        face: r.face,
        ...(r.principal ? { principal: r.principal.id } : {}),
      };
      if (ctx.status >= 500) log.warn("request", fields);
      else log.info("request", fields);
    },
  };
}
