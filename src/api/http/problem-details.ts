import { AppError, ERROR_KINDS, PROBLEM_TYPE_BASE } from "../../errors";

/**
 * ProblemDetails (IETF RFC 7807; NGSI-LD types of ETSI GS CIM 009 §5.5.2) for an error: the body of
 * NGSI-LD, SPARQL and plain HTTP errors, and of the errors inside NGSI-LD batch results (§5.2.16).
 */
export function problemDetails(err: AppError, requestId?: string): Record<string, unknown> {
  const k = ERROR_KINDS[err.kind];
  return {
    type: PROBLEM_TYPE_BASE + k.problem,
    title: k.title,
    status: k.status,
    detail: err.message,
    ...(Object.keys(err.details).length ? { details: err.details } : {}),
    ...(requestId ? { requestId } : {}),
  };
}
