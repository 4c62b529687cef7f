import { ERROR_KINDS } from "../../errors";
import type { ErrorRenderer } from "../http/faces";

/**
 * The REST error body of both variants: `{error: {code, message, details}}`
 * (traffic-service-interface.md §7; decisions.md "Errors beyond the spec's table"), with
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
