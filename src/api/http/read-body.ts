import type { Context } from "koa";
import { AppError } from "../../errors";

/**
 * Reads the raw request body up to `limit` bytes; a larger body is refused with 413 before it is
 * read further (ETSI GS CIM 009 §6.3.4 "RequestEntityTooLarge").
 */
export async function readBody(ctx: Context, limit: number): Promise<string> {
  const declared = Number(ctx.get("Content-Length") || "0");
  if (declared > limit) {
    throw new AppError("PayloadTooLarge", `The body has ${declared} bytes, more than the limit of ${limit}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit)
      throw new AppError("PayloadTooLarge", `The body is larger than the limit of ${limit} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Parses JSON text; malformed JSON is a 400 InvalidRequest naming the position. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("InvalidRequest", `The body is not valid JSON: ${(e as Error).message}`);
  }
}
