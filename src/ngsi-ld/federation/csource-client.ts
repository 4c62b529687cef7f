/**
 * The one HTTP client of distributed operations: every request the broker sends to a registered context
 * source goes through {@link csourceFetch}, which asks the outbound policy first (src/jobs/outbound-policy.ts,
 * the one notifications obey: no link-local or unspecified address, not the broker itself, loopback only
 * with OUTBOUND_ALLOW_LOOPBACK) with the addresses the host resolves to at send time, and follows no redirect
 * (one could lead where the policy refuses).
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

/** Throws when `url` may not be requested (OutboundPolicy.check). */
export type OutboundCheck = (url: string) => Promise<void>;

/**
 * Sends one request to a context source; resolves with any HTTP answer (the caller judges the status; a
 * redirect is one), rejects with a {@link CsourceError} when `allowed` refuses the URL, on a network error
 * or when `timeoutMs` passes first.
 */
export async function csourceFetch(req: CsourceRequest, allowed: OutboundCheck): Promise<CsourceResponse> {
  try {
    await allowed(req.url);
  } catch (e) {
    throw new CsourceError((e as Error).message);
  }
  const signal = AbortSignal.timeout(req.timeoutMs);
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal,
      redirect: "manual",
    });
    const text = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    return { status: res.status, headers, text };
  } catch (e) {
    if (signal.aborted) throw new CsourceError(`no answer within ${req.timeoutMs} ms`, undefined, true);
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new CsourceError(`request failed: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
}
