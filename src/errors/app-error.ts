import { ERROR_KINDS, ErrorKind } from "./error-kinds";

/**
 * The one internal error type (docs/design.md "Errors"). Every layer throws this; each API face
 * renders it its own way from {@link ERROR_KINDS}.
 */
export class AppError extends Error {
  /** The closed kind; decides status and rendering. */
  readonly kind: ErrorKind;
  /** Structured extra facts (parameter, value, expected, ...), shown to the client. */
  readonly details: Record<string, unknown>;

  constructor(kind: ErrorKind, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "AppError";
    this.kind = kind;
    this.details = details;
  }

  /** The HTTP status of this error's kind. */
  get status(): number {
    return ERROR_KINDS[this.kind].status;
  }
}

/** Shorthand for a 400 BadRequestData error. */
export function badRequest(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError("BadRequestData", message, details);
}

/** Shorthand for a 404 ResourceNotFound error. */
export function notFound(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError("ResourceNotFound", message, details);
}

/** Turns anything thrown into an AppError; unknown errors become InternalError (details hidden). */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError("InternalError", "Internal error");
}
