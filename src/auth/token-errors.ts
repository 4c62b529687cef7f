import { AppError } from "../errors";

/** A 401 with a reason (RFC 6750 §3.1 `invalid_token` when a token was given, none otherwise). */
export function unauthorized(message: string, tokenGiven = true): AppError {
  return new AppError("Unauthorized", message, tokenGiven ? { reason: "invalid_token" } : {});
}
