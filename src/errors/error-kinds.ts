/**
 * The closed set of error kinds (docs/design.md "Errors") and how each one renders on every face:
 * `status` (HTTP), `problem` (the NGSI-LD ProblemDetails `type`, ETSI GS CIM 009 §5.5.2, Table
 * 5.5.2-1), `code` (the REST `error.code`, docs/rest.md "Errors"), `graphql` (GraphQL
 * `errors[].extensions.code`), `close` (the close code of a WebSocket or graphql-ws socket the error
 * ends: 4401 unauthenticated, 4403 forbidden, 4429 rate limited, 4400 another client error, 1011 the
 * server's fault) and `title` (what a 5xx shows instead of its message).
 */
export const ERROR_KINDS = {
  BadRequestData: {
    status: 400,
    problem: "BadRequestData",
    code: "INVALID_PARAMETER",
    graphql: "INVALID_PARAMETER",
    close: 4400,
    title: "Bad request data",
  },
  InvalidRequest: {
    status: 400,
    problem: "InvalidRequest",
    code: "INVALID_REQUEST",
    graphql: "INVALID_REQUEST",
    close: 4400,
    title: "Invalid request",
  },
  ResourceNotFound: {
    status: 404,
    problem: "ResourceNotFound",
    code: "NOT_FOUND",
    graphql: "NOT_FOUND",
    close: 4400,
    title: "Resource not found",
  },
  NonexistentTenant: {
    status: 404,
    problem: "NonexistentTenant",
    code: "NOT_FOUND",
    graphql: "NOT_FOUND",
    close: 4400,
    title: "Tenant not found",
  },
  AlreadyExists: {
    status: 409,
    problem: "AlreadyExists",
    code: "CONFLICT",
    graphql: "CONFLICT",
    close: 4400,
    title: "Already exists",
  },
  /** A state change the resource's transitions table does not allow (a report decided twice). */
  Conflict: {
    status: 409,
    problem: "AlreadyExists",
    code: "CONFLICT",
    graphql: "CONFLICT",
    close: 4400,
    title: "Conflict",
  },
  OperationNotSupported: {
    status: 422,
    problem: "OperationNotSupported",
    code: "INVALID_REQUEST",
    graphql: "INVALID_REQUEST",
    close: 4400,
    title: "Operation not supported",
  },
  NotAcceptable: {
    status: 406,
    problem: "NotAcceptable",
    code: "INVALID_REQUEST",
    graphql: "INVALID_REQUEST",
    close: 4400,
    title: "Not acceptable",
  },
  UnsupportedMediaType: {
    status: 415,
    problem: "UnsupportedMediaType",
    code: "INVALID_REQUEST",
    graphql: "INVALID_REQUEST",
    close: 4400,
    title: "Unsupported media type",
  },
  PayloadTooLarge: {
    status: 413,
    problem: "RequestEntityTooLarge",
    code: "INVALID_REQUEST",
    graphql: "INVALID_REQUEST",
    close: 4400,
    title: "Body too large",
  },
  RequestTimeout: {
    status: 408,
    problem: "InvalidRequest",
    code: "REQUEST_TIMEOUT",
    graphql: "REQUEST_TIMEOUT",
    close: 4400,
    title: "Request body not received in time",
  },
  MethodNotAllowed: {
    status: 405,
    problem: "InvalidRequest",
    code: "INVALID_REQUEST",
    graphql: "INVALID_REQUEST",
    close: 4400,
    title: "Method not allowed",
  },
  LdContextNotAvailable: {
    status: 503,
    problem: "LdContextNotAvailable",
    code: "SERVICE_UNAVAILABLE",
    graphql: "SERVICE_UNAVAILABLE",
    close: 1011,
    title: "JSON-LD context not available",
  },
  Unauthorized: {
    status: 401,
    problem: "Unauthorized",
    code: "UNAUTHORIZED",
    graphql: "UNAUTHORIZED",
    close: 4401,
    title: "Unauthorized",
  },
  AccessDenied: {
    status: 403,
    problem: "AccessDenied",
    code: "FORBIDDEN",
    graphql: "FORBIDDEN",
    close: 4403,
    title: "Access denied",
  },
  TooManyRequests: {
    status: 429,
    problem: "TooManyRequests",
    code: "RATE_LIMIT_EXCEEDED",
    graphql: "RATE_LIMIT_EXCEEDED",
    close: 4429,
    title: "Too many requests",
  },
  StoreFull: {
    status: 507,
    problem: "InternalError",
    code: "STORE_FULL",
    graphql: "STORE_FULL",
    close: 1011,
    title: "The graph store has reached its configured capacity",
  },
  ServiceUnavailable: {
    status: 503,
    problem: "InternalError",
    code: "SERVICE_UNAVAILABLE",
    graphql: "SERVICE_UNAVAILABLE",
    close: 1011,
    title: "Unavailable",
  },
  LoopDetected: {
    status: 508,
    problem: "LoopDetected",
    code: "INVALID_REQUEST",
    graphql: "INVALID_REQUEST",
    close: 1011,
    title: "Loop detected",
  },
  InternalError: {
    status: 500,
    problem: "InternalError",
    code: "INTERNAL_ERROR",
    graphql: "INTERNAL_ERROR",
    close: 1011,
    title: "Internal error",
  },
} as const;

/** Name of one error kind. */
export type ErrorKind = keyof typeof ERROR_KINDS;

/** Base of the NGSI-LD ProblemDetails `type` URIs (ETSI GS CIM 009 §5.5.2). */
export const PROBLEM_TYPE_BASE = "https://uri.etsi.org/ngsi-ld/errors/";
