import { isUtf8 } from "node:buffer";
import type { IncomingMessage } from "node:http";
import type { Context } from "koa";
import { DEFAULT_BODY_READ_TIMEOUT_MS } from "../../config/config";
import { AppError } from "../../errors";
import { checkJsonDepth, MAX_JSON_DEPTH } from "./json-depth";

/**
 * Reads the raw request body up to `limit` bytes; a larger body is refused with 413 before it is
 * read further (ETSI GS CIM 009 §6.3.4 "RequestEntityTooLarge"). A body that has not fully arrived
 * after `timeoutMs` is 408, and the connection closes after the answer (a slow or stalled client must
 * not hold a request open).
 */
export async function readBody(
  ctx: Context,
  limit: number,
  timeoutMs = DEFAULT_BODY_READ_TIMEOUT_MS,
): Promise<string> {
  const declared = Number(ctx.get("Content-Length") || "0");
  if (declared > limit) {
    throw new AppError("PayloadTooLarge", `The body has ${declared} bytes, more than the limit of ${limit}`);
  }
  const timeout = () => {
    ctx.set("Connection", "close");
    return new AppError("RequestTimeout", `The body did not arrive within ${timeoutMs} ms`);
  };
  return readAll(ctx.req, limit, timeoutMs, timeout);
}

/**
 * The whole stream as UTF-8 text (a body that is not UTF-8 is a 400: decoding it would put U+FFFD where
 * its bytes were), through plain `data`/`end` listeners: a `for await` over the request
 * (its async iterator, a promise and a microtask per chunk) cost the main thread more per POST
 * (docs/decisions/0001-write-path.md). As that loop did, a body over `limit` or
 * a stream that closes before its end rejects, and the request stream is destroyed.
 */
function readAll(
  req: IncomingMessage,
  limit: number,
  timeoutMs: number,
  timeout: () => Error,
): Promise<string> {
  if (req.readableEnded) return Promise.resolve("");
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    const timer = setTimeout(() => {
      // the answer still goes out on this socket: stop reading instead of destroying the request
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      req.pause();
      reject(timeout());
    }, timeoutMs);
    const finish = (err?: Error): void => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      if (err) {
        req.destroy();
        reject(err);
      } else {
        const whole = more ? Buffer.concat(more) : first;
        if (whole === undefined) resolve("");
        else if (isUtf8(whole)) resolve(whole.toString("utf8"));
        else reject(new AppError("InvalidRequest", "The body is not valid UTF-8"));
      }
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

/**
 * Parses JSON text; malformed JSON is a 400 InvalidRequest naming the position, and so is JSON nested
 * deeper than `maxDepth` (checked first, json-depth.ts), and a string escape that leaves a lone UTF-16
 * surrogate (`"\ud83d"`, text no IRI or literal can hold: RFC 8259 §8.2).
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  checkJsonDepth(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AppError("InvalidRequest", `The body is not valid JSON: ${(e as Error).message}`);
  }
  if (SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(value)) {
    throw new AppError("InvalidRequest", "The body holds a string with a lone UTF-16 surrogate");
  }
  return value;
}

/** A `\uD800`-`\uDFFF` escape: only a body with one needs the walk of {@link holdsLoneSurrogate}. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string of `v` (a key or a value, at any depth) holds a lone surrogate. */
function holdsLoneSurrogate(v: unknown): boolean {
  if (typeof v === "string") return LONE_SURROGATE.test(v);
  if (typeof v !== "object" || v === null) return false;
  if (Array.isArray(v)) return v.some(holdsLoneSurrogate);
  return Object.entries(v).some(([k, x]) => LONE_SURROGATE.test(k) || holdsLoneSurrogate(x));
}
