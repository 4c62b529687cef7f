import { AppError, type ErrorKind, ERROR_KINDS } from "../../errors";
import type { WireError } from "./protocol";

/** A worker's error, carried back as data, as the AppError of the same kind (InternalError if unknown). */
export function toAppError(e: WireError): AppError {
  return new AppError(
    e.kind in ERROR_KINDS ? (e.kind as ErrorKind) : "InternalError",
    e.message,
    e.details ?? {},
  );
}
