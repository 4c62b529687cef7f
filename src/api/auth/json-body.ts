import type { Context } from "koa";
import { AppError } from "../../errors";
import { parseJson, readBody } from "../http/read-body";

/** Largest body of an auth or admin request. */
const MAX_AUTH_BODY = 16 * 1024;

/** The JSON body of an auth request: 415 unless `application/json`, 400 when not JSON. */
export async function jsonBody(ctx: Context): Promise<unknown> {
  if (!ctx.is("application/json")) {
    throw new AppError("UnsupportedMediaType", "The body must be application/json", {
      expected: "application/json",
    });
  }
  return parseJson(await readBody(ctx, MAX_AUTH_BODY));
}
