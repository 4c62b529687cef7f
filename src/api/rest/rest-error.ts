import type { ErrorRenderer } from "../http/faces";
import { ERROR_KINDS } from "../../errors";

/**
 * The REST error body (traffic-service-interface.md §7, decisions.md "Errors beyond the spec's
 * table"): `{error: {code, message, details}}`, with `request_id` on a 5xx and `retry_after` on 429.
 */
export const renderRestError: ErrorRenderer = (ctx, err, requestId) => {
  const body: Record<string, unknown> = {
    code: ERROR_KINDS[err.kind].code,
    message: err.message,
    details: err.details,
  };
  if (err.status >= 500) body.request_id = requestId;
  if (typeof err.details.retry_after === "number") body.retry_after = err.details.retry_after;
  ctx.body = { error: body };
  ctx.type = "application/json";
};
