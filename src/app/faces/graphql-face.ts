import { faceRouter } from "./face-router";
import { GraphQLError } from "graphql";
import { buildGraphqlSchema } from "../../api/graphql/build-schema";
import { graphqlContext, type GraphqlDeps } from "../../api/graphql/graphql-context";
import { registerGraphqlRoutes } from "../../api/graphql/graphql-routes";
import { GraphqlSocketServer } from "../../api/graphql/graphql-socket-server";
import { PersistedQueries } from "../../api/graphql/persisted-queries";
import { aliasLimit, costLimit, depthLimit } from "../../api/graphql/query-limits";
import type { ErrorRenderer } from "../../api/http/faces";
import type { LiveAuth } from "../../api/http/live-auth";
import type { Config } from "../../config/config";
import type { Metrics } from "../../observability/metrics";
import { ERROR_KINDS } from "../../errors";
import type { Logger } from "../../log/logger";
import type { Face } from "./face";

/** Errors raised before GraphQL runs (a body too large): `{errors:[{message, extensions:{code}}]}`. */
const renderGraphqlError: ErrorRenderer = (ctx, err, requestId) => {
  const code = ERROR_KINDS[err.kind].code;
  const extensions = err.status >= 500 ? { code, request_id: requestId } : { code };
  ctx.body = { errors: [new GraphQLError(err.message, { extensions }).toJSON()] };
  ctx.type = "application/json";
};

/**
 * GraphQL at `/graphql` (docs/graphql-and-websocket.md "GraphQL `/graphql`"): queries and mutations over HTTP,
 * subscriptions over WebSocket on the same path, one schema (src/api/graphql/schema.graphql).
 */
export function graphqlFace(
  config: Config,
  log: Logger,
  deps: GraphqlDeps,
  auth: LiveAuth,
  metrics: Metrics,
): Face {
  const schema = buildGraphqlSchema();
  const rules = [
    depthLimit(config.live.graphqlMaxDepth),
    aliasLimit(config.live.graphqlMaxAliases),
    costLimit(config.live.graphqlMaxCost),
  ];
  const router = faceRouter();
  registerGraphqlRoutes(router, {
    schema,
    rules,
    maxDepth: config.live.graphqlMaxDepth,
    maxAliases: config.live.graphqlMaxAliases,
    maxBodyBytes: config.server.maxBodyBytes,
    timeoutMs: config.live.graphqlTimeoutMs,
    persisted: new PersistedQueries(),
    context: (principal, deadline) => ({ ...graphqlContext(deps, principal), deadline }),
  });
  const sockets = new GraphqlSocketServer({
    schema,
    rules,
    maxDepth: config.live.graphqlMaxDepth,
    maxAliases: config.live.graphqlMaxAliases,
    timeoutMs: config.live.graphqlTimeoutMs,
    maxFrameBytes: config.live.maxFrameBytes,
    heartbeatMs: config.live.heartbeatMs,
    maxSubscriptions: config.live.maxSubscriptions,
    queueMessages: config.live.queueMessages,
    onDrop: () => metrics.socketDropped("graphql-ws"),
    auth,
    bus: deps.bus,
    context: (principal) => ({ ...graphqlContext(deps, principal) }),
    onError: (e) => log.warn("graphql subscription error", { error: String(e) }),
  });
  metrics.addSources({ sockets: () => ({ "graphql-ws": sockets.size }) });
  return {
    mount: { name: "graphql", prefixes: ["/graphql"], renderError: renderGraphqlError },
    routers: [router],
    upgrades: [{ path: "/graphql", handle: (req, socket, head) => sockets.handleUpgrade(req, socket, head) }],
    close: () => sockets.close(),
  };
}
