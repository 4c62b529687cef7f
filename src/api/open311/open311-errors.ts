import type { ErrorRenderer } from "../http/faces";

/** GeoReport v2 errors: an array of `{code, description}` with the HTTP status as the code. */
export const renderOpen311Error: ErrorRenderer = (ctx, err, requestId) => {
  ctx.body = [
    {
      code: err.status,
      description: err.status >= 500 ? `${err.message} (request ${requestId})` : err.message,
    },
  ];
  ctx.type = "application/json";
};
