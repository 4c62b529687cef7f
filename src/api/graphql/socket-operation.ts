import {
  getOperationAST,
  GraphQLError,
  specifiedRules,
  type ExecutionArgs,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";
import type { SubscribePayload } from "graphql-ws";
import { AppError } from "../../errors";
import type { LiveAuth } from "../http/live-auth";
import type { Principal } from "../http/request-context";
import type { SocketOutbox } from "../http/socket-outbox";
import { DocumentCache } from "./document-cache";
import { formatGraphqlError } from "./graphql-errors";
import { parseLimited } from "./parse-limited";
import type { Subscriber } from "./subscription-fanout";

/** What the preparation knows of one graphql-ws connection. */
export interface SocketConnection {
  principal?: Principal;
  out: SocketOutbox;
  /** Ids of the connection's subscription operations. */
  subscriptions: Set<string>;
}

/**
 * What a graphql-ws `subscribe` message becomes (graphql-ws's onSubscribe): the document parsed and
 * validated with the limits of HTTP (cached by text), a mutation only for a principal who may write,
 * a subscription only within `maxSubscriptions` per connection. A query or mutation gets a resolver
 * context; a subscription gets its {@link Subscriber} as context, for the fan-out. Errors are the
 * operation's `error` message.
 */
export function operationPreparer(o: {
  schema: GraphQLSchema;
  rules: readonly ValidationRule[];
  maxDepth: number;
  /** GRAPHQL_MAX_ALIASES, checked on the parsed document before validation. */
  maxAliases?: number;
  /** GRAPHQL_TIMEOUT: a query or mutation's resolvers starting later fail with QUERY_TIMEOUT. */
  timeoutMs?: number;
  maxSubscriptions: number;
  auth: LiveAuth;
  context(principal: Principal | undefined): Record<string, unknown>;
}): (conn: SocketConnection, id: string, payload: SubscribePayload) => ExecutionArgs | GraphQLError[] {
  const docs = new DocumentCache(parseLimited(o.maxDepth, o.maxAliases));
  const rules = [...specifiedRules, ...o.rules];
  return (conn, id, payload) => {
    let document;
    try {
      document = docs.parse(payload.query);
    } catch (e) {
      return [formatGraphqlError(e instanceof GraphQLError ? e : new GraphQLError(String(e)))];
    }
    const errors = docs.validate(o.schema, document, rules);
    if (errors.length) return errors.map((e) => formatGraphqlError(e));
    const op = getOperationAST(document, payload.operationName);
    const args = {
      schema: o.schema,
      document,
      operationName: payload.operationName,
      variableValues: payload.variables,
    };
    if (op?.operation === "mutation" && (!conn.principal || !o.auth.mayWrite(conn.principal))) {
      return [refusal("AccessDenied", "Mutations need the operator role")];
    }
    if (op?.operation !== "subscription") {
      const deadline = o.timeoutMs === undefined ? undefined : Date.now() + o.timeoutMs;
      return { ...args, contextValue: { ...o.context(conn.principal), deadline } };
    }
    if (conn.subscriptions.size >= o.maxSubscriptions) {
      const message = `At most ${o.maxSubscriptions} subscriptions per connection: complete one first`;
      return [refusal("InvalidRequest", message)];
    }
    conn.subscriptions.add(id);
    const subscriber: Subscriber = { id, out: conn.out, onEnd: () => conn.subscriptions.delete(id) };
    return { ...args, contextValue: subscriber };
  };
}

function refusal(kind: "AccessDenied" | "InvalidRequest", message: string): GraphQLError {
  return formatGraphqlError(new GraphQLError(message, { originalError: new AppError(kind, message) }));
}
