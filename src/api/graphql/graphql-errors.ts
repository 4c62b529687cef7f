import { GraphQLError } from "graphql";
import { AppError, ERROR_KINDS } from "../../errors";

/**
 * Every GraphQL error with an `extensions.code`: an AppError thrown by a resolver carries its kind's
 * `graphql` code of the error table (NOT_FOUND, INVALID_PARAMETER, FORBIDDEN, ...); syntax and validation errors are INVALID_REQUEST unless a rule set its own code
 * (QUERY_TOO_DEEP, QUERY_TOO_COMPLEX, PERSISTED_QUERY_NOT_FOUND); anything else is INTERNAL_ERROR
 * with its message hidden and the request id shown.
 */
export function formatGraphqlError(err: Readonly<GraphQLError | Error>, requestId?: string): GraphQLError {
  // graphql-http reports a malformed request (bad JSON, no query) as a plain Error: the client's fault
  if (!(err instanceof GraphQLError))
    return new GraphQLError(err.message, { extensions: { code: "INVALID_REQUEST" } });
  const original = err.originalError;
  if (original instanceof AppError) {
    const kind = ERROR_KINDS[original.kind];
    if (kind.status >= 500) return internal(err, kind.graphql, kind.title, requestId);
    return withCode(err, kind.graphql, original.message, { ...original.details });
  }
  // a resolver that failed unexpectedly: nothing of it reaches the client
  if (original && !(original instanceof GraphQLError))
    return internal(err, ERROR_KINDS.InternalError.graphql, ERROR_KINDS.InternalError.title, requestId);
  const code = typeof err.extensions?.code === "string" ? err.extensions.code : "INVALID_REQUEST";
  return withCode(err, code, err.message, {});
}

function withCode(
  g: GraphQLError,
  code: string,
  message: string,
  extra: Record<string, unknown>,
): GraphQLError {
  const e = new GraphQLError(message, {
    nodes: g.nodes,
    source: g.source,
    positions: g.positions,
    path: g.path,
    extensions: { ...g.extensions, ...extra, code },
  });
  // a compiled query's errors (graphql-jit) carry their locations without the nodes
  if (!e.locations && g.locations) Object.assign(e, { locations: g.locations });
  return e;
}

function internal(g: GraphQLError, code: string, title: string, requestId?: string): GraphQLError {
  return new GraphQLError(title, {
    path: g.path,
    extensions: { code, ...(requestId ? { request_id: requestId } : {}) },
  });
}
