import fetch, { type RequestInit, type Response } from "node-fetch";
import { AppError } from "../../errors";
import { type ContextDocument, parseContextDocument } from "./document";

/** Limits of one remote @context download. */
export interface FetchLimits {
  /** Whole-download deadline (connect + headers + body), ms. */
  timeoutMs: number;
  /** Largest accepted body, bytes. */
  maxBytes: number;
}

/** What a download asks of the HTTP function: node-fetch's options and how many redirects to follow. */
export type ContextFetchInit = Pick<RequestInit, "headers" | "size" | "compress" | "signal"> & {
  maxRedirects: number;
};

/**
 * The function used for HTTP. The broker's follows redirects through the outbound policy's checked
 * connections; the default (node-fetch v2) follows none, and tests replace it.
 */
export type FetchFn = (url: string, init: ContextFetchInit) => Promise<Response>;

const plainFetch: FetchFn = (url, { maxRedirects: _, ...init }) =>
  fetch(url, { ...init, redirect: "manual" });

/** Redirects followed for one @context (w3id.org and similar permanent-URL services answer with one). */
const MAX_REDIRECTS = 5;

const ACCEPT = "application/ld+json, application/json;q=0.9, */*;q=0.1";

/**
 * The one text of every failed download: what went wrong (refused connection, reset, a status, a body
 * that is not a context) stays out of the answer, as it would map the hosts and ports the broker can reach. `reason` is kept on the error
 * (`cause`) for the log.
 */
function unavailable(url: string, reason: string): AppError {
  const e = new AppError("LdContextNotAvailable", `The @context ${url} could not be retrieved`, { url });
  (e as Error & { cause?: unknown }).cause = reason;
  return e;
}

/**
 * Downloads and parses one remote @context (ETSI GS CIM 009 §5.5.7: remote contexts are
 * dereferenced by the broker). Only http and https URLs are fetched. Fails fast, never hangs:
 * timeout, connection error, a refused address, non-2xx status, a body over `maxBytes` or a body that
 * is not a JSON object with `@context` all throw the same LdContextNotAvailable (503, §5.5.2 Table
 * 5.5.2-1: "unable to retrieve a remote JSON-LD @context"), so the answer tells no open port from a
 * closed one.
 */
export async function fetchContextDocument(
  url: string,
  limits: FetchLimits,
  fetchFn: FetchFn = plainFetch,
): Promise<ContextDocument> {
  const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
  if (scheme !== "http:" && scheme !== "https:") {
    throw new AppError("BadRequestData", `Only http and https @context URLs can be fetched, got ${url}`, {
      url,
    });
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    const res = await fetchFn(url, {
      headers: { Accept: ACCEPT },
      maxRedirects: MAX_REDIRECTS,
      size: limits.maxBytes,
      compress: true,
      signal: controller.signal as RequestInit["signal"],
    });
    if (res.status < 200 || res.status > 299) throw unavailable(url, `HTTP status ${res.status}`);
    const declared = Number(res.headers.get("content-length") ?? "0");
    if (declared > limits.maxBytes) throw unavailable(url, `larger than ${limits.maxBytes} bytes`);
    const text = await res.text();
    try {
      return parseContextDocument(text, url);
    } catch (e) {
      throw unavailable(url, (e as Error).message);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (controller.signal.aborted) throw unavailable(url, `no answer within ${limits.timeoutMs} ms`);
    const type = (err as { type?: unknown }).type;
    if (type === "max-size") throw unavailable(url, `larger than ${limits.maxBytes} bytes`);
    throw unavailable(url, (err as Error).message ?? "network error");
  } finally {
    clearTimeout(timer);
  }
}
