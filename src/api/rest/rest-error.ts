import { ERROR_KINDS } from "../../errors";
import type { ErrorRenderer } from "../http/faces";

/**
 * The REST error body of both variants: `{error: {code, message, details}}`
 * (docs/rest.md "Conventions"; docs/design.md "Errors"), with
 * `request_id` on a 5xx and `retry_after` on a 429.
 */
export const renderRestError: ErrorRenderer = (ctx, err, requestId) => {
  const retry = err.kind === "TooManyRequests" ? err.details.retry_after : undefined;
  ctx.body = {
    error: {
      code: ERROR_KINDS[err.kind].code,
      message: err.message,
      details: retry === undefined ? err.details : {},
      ...(err.status >= 500 ? { request_id: requestId } : {}),
      ...(retry !== undefined ? { retry_after: retry } : {}),
    },
  };
};
