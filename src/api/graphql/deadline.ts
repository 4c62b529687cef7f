import { GraphQLError } from "graphql";

/** What an operation's context may hold: the time (ms since epoch) its resolvers must not start after. */
export interface WithDeadline {
  deadline?: number;
}

/**
 * Throws QUERY_TIMEOUT when the context's deadline has passed: a resolver of an operation that has run
 * too long does no more work, so one request's work is bounded in time (GRAPHQL_TIMEOUT).
 */
export function checkDeadline(context: unknown): void {
  const deadline = (context as WithDeadline | undefined)?.deadline;
  if (deadline !== undefined && Date.now() > deadline) {
    throw new GraphQLError("The query ran past its time limit and was stopped", {
      extensions: { code: "QUERY_TIMEOUT" },
    });
  }
}
