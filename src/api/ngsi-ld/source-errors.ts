import { AppError, ERROR_KINDS, type ErrorKind } from "../../errors";
import type { SourceFailure } from "../../ngsi-ld/federation/distributor";

/** The error kind that renders a source's HTTP status (for a write only a source took). */
export function errorKindOfStatus(status: number): ErrorKind {
  const found = (Object.keys(ERROR_KINDS) as ErrorKind[]).find((k) => ERROR_KINDS[k].status === status);
  return found ?? "InternalError";
}

/** A failed source as an entry of a 207 body's `errors` (§4.3.6, BatchEntityError-like). */
export function sourceErrorOf(f: SourceFailure): { registrationId: string; error: Record<string, unknown> } {
  return {
    registrationId: f.registrationId,
    error: {
      type: "https://uri.etsi.org/ngsi-ld/errors/InternalError",
      title: "Context source error",
      detail: `${f.endpoint}: ${f.detail}`,
      ...(f.problem ?? {}),
      status: f.status ?? 504,
    },
  };
}

/** The local part's error as the ProblemDetails of a 207 body's `errors` entry. */
export function localProblemOf(e: AppError): Record<string, unknown> {
  return {
    type: `https://uri.etsi.org/ngsi-ld/errors/${ERROR_KINDS[e.kind].problem}`,
    title: ERROR_KINDS[e.kind].title,
    status: e.status,
    detail: e.message,
  };
}

/**
 * Runs the local part of a distributed write (the rest of the middleware chain) and returns its AppError
 * instead of throwing it, so that it can become one failed part of a 207 beside the sources' answers.
 */
export async function localPart(next: () => Promise<unknown>): Promise<AppError | undefined> {
  try {
    await next();
    return undefined;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return e;
  }
}
