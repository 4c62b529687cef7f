import type { Context, Next } from "koa";
import { AppError, ERROR_KINDS, toAppError } from "../../errors";
import type { Logger } from "../../log/logger";
import type { ErrorRenderer } from "./faces";
import { requestOf, type FaceName } from "./request-context";

/**
 * Turns every thrown error into the body of the face that serves the request (docs/design.md "Errors").
 * A 500 never shows internals: the client sees the kind's title and the request id, the log keeps
 * the message and the stack. Other 5xx kinds (503, 507) carry messages written for the client. A bad
 * input is a 4xx AppError by construction.
 */
export function errorMiddleware(log: Logger, rendererOf: (face: FaceName) => ErrorRenderer) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (raw) {
      const request = requestOf(ctx);
      let err = toAppError(raw);
      // a refusal with a retry time (the drain of a shutdown) is expected: not a failure to log
      const retryAfter = typeof err.details.retry_after === "number" ? err.details.retry_after : undefined;
      if (err.status >= 500 && retryAfter === undefined) {
        log.error("request failed", {
          requestId: request.id,
          method: ctx.method,
          path: ctx.path,
          kind: err.kind,
          error: raw instanceof Error ? (raw.stack ?? raw.message) : String(raw),
          cause: raw instanceof Error && raw.cause !== undefined ? String(raw.cause) : undefined,
        });
        if (err.kind === "InternalError") err = new AppError(err.kind, ERROR_KINDS[err.kind].title);
      }
      ctx.status = err.status;
      if (retryAfter !== undefined) ctx.set("Retry-After", String(retryAfter));
      if (err.kind === "Unauthorized") ctx.set("WWW-Authenticate", bearerChallenge(err));
      rendererOf(request.face)(ctx, err, request.id);
    }
  };
}

/** The `WWW-Authenticate` of a 401 (RFC 6750 §3): `error="invalid_token"` when a token was refused. */
function bearerChallenge(err: AppError): string {
  if (err.details.reason !== "invalid_token") return 'Bearer realm="citygraph"';
  const desc = err.message.replace(/["\\]/g, "'");
  return `Bearer realm="citygraph", error="invalid_token", error_description="${desc}"`;
}
