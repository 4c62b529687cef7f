export { AppError, badRequest, notFound, toAppError } from "./app-error";
export { ERROR_KINDS, PROBLEM_TYPE_BASE } from "./error-kinds";
export type { ErrorKind } from "./error-kinds";
