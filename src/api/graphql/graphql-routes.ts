import type Router from "@koa/router";
import { createHandler, type OperationContext, type Response } from "graphql-http";
import type { execute, ExecutionResult, GraphQLSchema, validate, ValidationRule } from "graphql";
import type { Context } from "koa";
import { readBody } from "../http/read-body";
import { requestOf, type Principal } from "../http/request-context";
import { CompiledExecution } from "./compiled-execution";
import { DocumentCache } from "./document-cache";
import { formatGraphqlError } from "./graphql-errors";
import { parseLimited } from "./parse-limited";
import type { PersistedQueries } from "./persisted-queries";

/** What the HTTP route needs. */
export interface GraphqlHttpOptions<C extends OperationContext> {
  schema: GraphQLSchema;
  rules: readonly ValidationRule[];
  maxDepth: number;
  /** GRAPHQL_MAX_ALIASES, checked on the parsed document before validation. */
  maxAliases?: number;
  maxBodyBytes: number;
  /** GRAPHQL_TIMEOUT: resolvers starting this long after the request fail with QUERY_TIMEOUT. */
  timeoutMs: number;
  persisted: PersistedQueries;
  /** The resolvers' context of one request (its loaders, its principal, its deadline in ms since epoch). */
  context(principal: Principal | undefined, deadline: number): C;
}

/**
 * GraphQL over HTTP at `/graphql` (docs/graphql-and-websocket.md "GraphQL `/graphql`"; the GraphQL over HTTP spec
 * through graphql-http): POST with JSON `{query, variables}`, GET with the same in the query string
 * (queries only), automatic persisted queries on both, parse and validation bounded by the token,
 * depth, cost and alias limits, executed by compiled documents (graphql-jit) within GRAPHQL_TIMEOUT, and
 * `extensions.code` on every error.
 */
export function registerGraphqlRoutes<C extends OperationContext>(
  router: Router,
  o: GraphqlHttpOptions<C>,
): void {
  const docs = new DocumentCache(parseLimited(o.maxDepth, o.maxAliases));
  const compiled = new CompiledExecution(o.schema);
  const serve = async (ctx: Context) => {
    const body = ctx.method === "POST" ? await readBody(ctx, o.maxBodyBytes) : null;
    const requestId = requestOf(ctx).id;
    const handler = createHandler<Context, undefined, C>({
      schema: o.schema,
      parse: docs.parse,
      validate: docs.validate as typeof validate,
      validationRules: o.rules,
      execute: compiled.execute as typeof execute,
      onOperation: (_req, _args, result) =>
        result.errors ? undefined : okResponse(result, ctx.get("accept")),
      context: () => o.context(requestOf(ctx).principal, Date.now() + o.timeoutMs),
      formatError: (e) => formatGraphqlError(e, requestId),
      parseRequestParams: (req) => persistedParams(o.persisted, req.method, req.url, body),
    });
    const [text, init] = await handler({
      method: ctx.method,
      url: ctx.url,
      headers: ctx.headers,
      body,
      raw: ctx,
      context: undefined,
    });
    ctx.status = init.status;
    for (const [k, v] of Object.entries(init.headers ?? {})) ctx.set(k, v);
    ctx.body = text ?? "";
  };
  router.get("/graphql", serve);
  router.post("/graphql", serve);
}

/**
 * A successful result as graphql-http would answer it, serialized without its error replacer (a
 * replacer function is called for every key: a third of the serialization time of a page of cameras).
 */
function okResponse(result: ExecutionResult, accept: string): Response {
  const type = accept.includes("application/graphql-response+json")
    ? "application/graphql-response+json; charset=utf-8"
    : "application/json; charset=utf-8";
  return [JSON.stringify(result), { status: 200, statusText: "OK", headers: { "content-type": type } }];
}

/**
 * The request parameters of an automatic persisted query (the query filled in from its hash), or
 * undefined for any other request (graphql-http's own parser takes it then).
 */
function persistedParams(persisted: PersistedQueries, method: string, url: string, body: string | null) {
  let params: Record<string, unknown>;
  if (method === "GET") {
    const q = new URL(url, "http://x").searchParams;
    const ext = q.get("extensions");
    if (!ext || !ext.includes("persistedQuery")) return undefined;
    params = {
      query: q.get("query") ?? undefined,
      operationName: q.get("operationName") ?? undefined,
      variables: json(q.get("variables")),
      extensions: json(ext),
    };
  } else {
    if (!body || !body.includes("persistedQuery")) return undefined;
    const parsed = json(body);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    params = parsed as Record<string, unknown>;
  }
  const query = persisted.resolve(params.query, params.extensions);
  return {
    query: query as string,
    operationName: (params.operationName as string | undefined) ?? undefined,
    variables: (params.variables as Record<string, unknown> | undefined) ?? undefined,
    extensions: params.extensions as Record<string, unknown> | undefined,
  };
}

function json(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
