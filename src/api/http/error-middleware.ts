import type { Context, Next } from "koa";
import { AppError, ERROR_KINDS, PROBLEM_TYPE_BASE, toAppError } from "../../errors";
import type { Logger } from "../../log/logger";

/** Which face a request belongs to, by path; each renders errors its own way (DESIGN.md "Errors"). */
export type Face = "ngsi-ld" | "rest" | "other";

function faceOf(path: string): Face {
  if (path.startsWith("/ngsi-ld/")) return "ngsi-ld";
  if (path.startsWith("/v1/") || path.startsWith("/api/v1/")) return "rest";
  return "other";
}

/**
 * NGSI-LD ProblemDetails (ETSI GS CIM 009 §5.5.2, IETF RFC 7807) for an error.
 * Used by the error middleware and inside batch results (§5.2.16).
 */
export function problemDetails(err: AppError): Record<string, unknown> {
  const k = ERROR_KINDS[err.kind];
  return {
    type: PROBLEM_TYPE_BASE + k.problem,
    title: k.title,
    status: k.status,
    detail: err.message,
    ...(Object.keys(err.details).length ? { details: err.details } : {}),
  };
}

/**
 * The first middleware: turns every thrown error into the face's error body. A 5xx never shows
 * internals (it carries a request id that is also logged); a bad input is never a 5xx.
 */
export function errorMiddleware(log: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (raw) {
      const err = toAppError(raw);
      const requestId = Math.random().toString(36).slice(2, 10);
      if (err.status >= 500) {
        log.error("request failed", {
          requestId,
          method: ctx.method,
          path: ctx.path,
          error: raw instanceof Error ? raw.stack : String(raw),
          cause: raw instanceof Error && raw.cause !== undefined ? String(raw.cause) : undefined,
        });
      }
      ctx.status = err.status;
      const face = faceOf(ctx.path);
      if (face === "rest") {
        ctx.body = {
          error: {
            code: ERROR_KINDS[err.kind].code,
            message: err.message,
            details: err.details,
            ...(err.status >= 500 ? { request_id: requestId } : {}),
          },
        };
      } else {
        ctx.body = problemDetails(err);
        ctx.set("Content-Type", "application/json");
      }
      if (err.kind === "TooManyRequests" && typeof err.details.retry_after === "number") {
        ctx.set("Retry-After", String(err.details.retry_after));
      }
    }
  };
}
