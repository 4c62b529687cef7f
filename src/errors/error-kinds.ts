/**
 * The closed set of error kinds (docs/design.md "Errors") and how each one renders on every face:
 * HTTP status, NGSI-LD ProblemDetails `type` (ETSI GS CIM 009 §5.5.2, Table 5.5.2-1), and the
 * traffic REST API's `error.code` (traffic-service-interface.md §7).
 */
export const ERROR_KINDS = {
  BadRequestData: {
    status: 400,
    problem: "BadRequestData",
    code: "INVALID_PARAMETER",
    title: "Bad request data",
  },
  InvalidRequest: {
    status: 400,
    problem: "InvalidRequest",
    code: "INVALID_REQUEST",
    title: "Invalid request",
  },
  ResourceNotFound: {
    status: 404,
    problem: "ResourceNotFound",
    code: "NOT_FOUND",
    title: "Resource not found",
  },
  NonexistentTenant: {
    status: 404,
    problem: "NonexistentTenant",
    code: "NOT_FOUND",
    title: "Tenant not found",
  },
  AlreadyExists: { status: 409, problem: "AlreadyExists", code: "CONFLICT", title: "Already exists" },
  /** A state change the resource's transitions table does not allow (a report decided twice). */
  Conflict: { status: 409, problem: "AlreadyExists", code: "CONFLICT", title: "Conflict" },
  OperationNotSupported: {
    status: 422,
    problem: "OperationNotSupported",
    code: "INVALID_REQUEST",
    title: "Operation not supported",
  },
  NotAcceptable: { status: 406, problem: "NotAcceptable", code: "INVALID_REQUEST", title: "Not acceptable" },
  UnsupportedMediaType: {
    status: 415,
    problem: "UnsupportedMediaType",
    code: "INVALID_REQUEST",
    title: "Unsupported media type",
  },
  PayloadTooLarge: {
    status: 413,
    problem: "RequestEntityTooLarge",
    code: "INVALID_REQUEST",
    title: "Body too large",
  },
  MethodNotAllowed: {
    status: 405,
    problem: "InvalidRequest",
    code: "INVALID_REQUEST",
    title: "Method not allowed",
  },
  LdContextNotAvailable: {
    status: 503,
    problem: "LdContextNotAvailable",
    code: "SERVICE_UNAVAILABLE",
    title: "JSON-LD context not available",
  },
  Unauthorized: { status: 401, problem: "Unauthorized", code: "UNAUTHORIZED", title: "Unauthorized" },
  AccessDenied: { status: 403, problem: "AccessDenied", code: "FORBIDDEN", title: "Access denied" },
  TooManyRequests: {
    status: 429,
    problem: "TooManyRequests",
    code: "RATE_LIMIT_EXCEEDED",
    title: "Too many requests",
  },
  StoreFull: {
    status: 507,
    problem: "InternalError",
    code: "STORE_FULL",
    title: "The graph store has reached its configured capacity",
  },
  ServiceUnavailable: {
    status: 503,
    problem: "InternalError",
    code: "SERVICE_UNAVAILABLE",
    title: "Unavailable",
  },
  LoopDetected: {
    status: 508,
    problem: "LoopDetected",
    code: "INVALID_REQUEST",
    title: "Loop detected",
  },
  InternalError: { status: 500, problem: "InternalError", code: "INTERNAL_ERROR", title: "Internal error" },
} as const;

/** Name of one error kind. */
export type ErrorKind = keyof typeof ERROR_KINDS;

/** Base of the NGSI-LD ProblemDetails `type` URIs (ETSI GS CIM 009 §5.5.2). */
export const PROBLEM_TYPE_BASE = "https://uri.etsi.org/ngsi-ld/errors/";
