import type { OutboundFetchFn } from "../../jobs/outbound-fetch";

/**
 * The one HTTP client of distributed operations: every request the broker sends to a registered context
 * source goes through {@link csourceFetch}, over the outbound policy's fetch (src/jobs/outbound-fetch.ts,
 * the one notifications obey: no link-local or unspecified address, not the broker itself, loopback only
 * with OUTBOUND_ALLOW_LOOPBACK), which checks the address each connection is made to, after name
 * resolution; no redirect is followed (a 3xx is the source's answer).
 */

/** One request to a context source. */
export interface CsourceRequest {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The request is aborted after this many ms (§5.2.34 management.timeout, or the broker's default). */
  timeoutMs: number;
}

/** A context source's answer. */
export interface CsourceResponse {
  status: number;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
  text: string;
}

/** Why a context source gave no usable answer. */
export class CsourceError extends Error {
  constructor(
    message: string,
    /** The source's HTTP status, when it answered. */
    readonly status?: number,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/**
 * Sends one request to a context source; resolves with any HTTP answer (the caller judges the status; a
 * redirect is one), rejects with a {@link CsourceError} when the outbound policy refuses the address, on a
 * network error or when `timeoutMs` passes first.
 */
export async function csourceFetch(req: CsourceRequest, fetch: OutboundFetchFn): Promise<CsourceResponse> {
  const signal = AbortSignal.timeout(req.timeoutMs);
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal,
    });
    const text = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    return { status: res.status, headers, text };
  } catch (e) {
    if (signal.aborted) throw new CsourceError(`no answer within ${req.timeoutMs} ms`, undefined, true);
    const reason = (e as Error).message.replace(/^request to .* failed, reason: /, "");
    throw new CsourceError(`request failed: ${(e as { code?: string }).code ?? reason}`);
  }
}
