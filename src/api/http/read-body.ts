import type { IncomingMessage } from "node:http";
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
  return readAll(ctx.req, limit);
}

/**
 * The whole stream as UTF-8 text, through plain `data`/`end` listeners: a `for await` over the request
 * (its async iterator, a promise and a microtask per chunk) was ~1 % of the main thread per POST
 * (docs/decisions/0001-write-path.md). As that loop did, a body over `limit` or
 * a stream that closes before its end rejects, and the request stream is destroyed.
 */
function readAll(req: IncomingMessage, limit: number): Promise<string> {
  if (req.readableEnded) return Promise.resolve("");
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    const finish = (err?: Error): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      if (err) {
        req.destroy();
        reject(err);
      } else if (more) resolve(Buffer.concat(more).toString("utf8"));
      else resolve(first ? first.toString("utf8") : "");
    };
    const onData = (b: Buffer): void => {
      size += b.length;
      if (size > limit) {
        finish(new AppError("PayloadTooLarge", `The body is larger than the limit of ${limit} bytes`));
        return;
      }
      if (first === undefined) first = b;
      else (more ??= [first]).push(b);
    };
    const onEnd = (): void => finish();
    const onError = (e: Error): void => finish(e);
    const onClose = (): void => finish(new Error("Premature close"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
    if (req.destroyed) finish(new Error("Premature close"));
  });
}

/** Parses JSON text; malformed JSON is a 400 InvalidRequest naming the position. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("InvalidRequest", `The body is not valid JSON: ${(e as Error).message}`);
  }
}
