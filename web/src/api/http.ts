import { session } from "./session";

/** A failed call, with a message a person can read. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Options of {@link request}. */
export interface RequestOptions {
  method?: string;
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** A body sent as is, with `contentType`. */
  body?: string;
  contentType?: string;
  accept?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * One call to the service's public faces with the logged-in user's token. A 401 tries one token
 * refresh and the call again; a second 401 ends the session (the page shows its login view).
 * Every failure becomes an ApiError whose message says what went wrong in words.
 */
export async function request(path: string, options: RequestOptions = {}): Promise<Response> {
  // a call left over from an ended session (a timer of a view already gone) is not sent
  if (!session.loggedIn()) throw new ApiError(STATUS_WORDS[401], 401);
  let used = session.token();
  let res = await send(path, options);
  // a 401 answers the token the call carried: it ends the session only if that token is still the
  // session's (not after a log out, nor after another user logged in meanwhile)
  if (res.status === 401 && session.token() === used && session.canRefresh()) {
    if (await session.refresh()) {
      used = session.token();
      res = await send(path, options);
    }
  }
  if (res.status === 401 && session.token() === used) session.expired();
  if (!res.ok) throw await errorOf(res);
  return res;
}

/** {@link request} answering parsed JSON. */
export async function requestJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await request(path, { accept: "application/json", ...options });
  return (await res.json()) as T;
}

async function send(path: string, o: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.accept) headers.Accept = o.accept;
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined = o.body;
  if (o.json !== undefined) {
    body = JSON.stringify(o.json);
    headers["Content-Type"] = "application/json";
  } else if (o.contentType) headers["Content-Type"] = o.contentType;
  try {
    return await fetch(path, { method: o.method ?? "GET", headers, body, signal: callSignal(o.signal) });
  } catch (e) {
    if ((e as Error).name === "AbortError") throw new ApiError("Cancelled.", 0, "CANCELLED");
    throw new ApiError("The service cannot be reached: check the network connection.", 0, "NETWORK");
  }
}

/** The call's own signal joined with the session's: a log out cancels what is still in flight. */
function callSignal(own: AbortSignal | undefined): AbortSignal {
  return own ? AbortSignal.any([own, session.signal()]) : session.signal();
}

/** Words for a failed answer: REST `{error: {message}}`, NGSI-LD ProblemDetails, or the status. */
export async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let message = "";
  let code: string | undefined;
  try {
    const body = JSON.parse(text) as {
      error?: { code?: string; message?: string };
      title?: string;
      detail?: string;
    };
    code = body.error?.code;
    message = body.error?.message ?? body.detail ?? body.title ?? "";
  } catch {
    message = text.length < 200 ? text.trim() : "";
  }
  const what = STATUS_WORDS[res.status] ?? `The service answered ${res.status}`;
  return new ApiError(message ? `${what}: ${message}` : `${what}.`, res.status, code);
}

const STATUS_WORDS: Record<number, string> = {
  400: "The request was refused",
  401: "Please log in again",
  403: "Your role does not allow this",
  404: "Not found",
  408: "The service took too long",
  413: "Too large",
  429: "Too many requests, wait a moment",
  500: "The service failed",
  503: "The service is busy or unavailable",
};
