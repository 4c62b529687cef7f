import type { Context } from "koa";
import type { JsonSchema } from "./json-schema";
import type { Param } from "./query-param";

/** One documented response of a route. */
export interface RouteResponse {
  description: string;
  /** JSON body schema; absent for a body that is not JSON (see `contentType`). */
  schema?: JsonSchema;
  /** Media type of the body, default application/json. */
  contentType?: string;
}

/** What a handler receives: typed query, path parameters, the JSON body (validated) and the Koa context. */
export interface RestInput<Q> {
  query: Q;
  params: Record<string, string>;
  body: unknown;
  ctx: Context;
}

/** What a handler answers: a status (200 when absent), a body and optional media type and headers. */
export interface RestOutput {
  status?: number;
  body: unknown;
  type?: string;
  headers?: Record<string, string>;
}

/**
 * A REST operation declared once: its path and parameters, body and response schemas feed both the
 * request validation and the OpenAPI document, so the two cannot drift (DESIGN.md "The request
 * pipeline": a route with a declared schema for query, body and response).
 */
export interface RestRoute<Q = Record<string, unknown>> {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** OpenAPI path template relative to the face's prefix, e.g. `/cameras/{camera_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Descriptions of the path parameters named in `path` (all strings). */
  pathParams?: Record<string, string>;
  query: { [K in keyof Q]: Param<Q[K]> };
  body?: { schema: JsonSchema; description?: string };
  /** Success responses by status; the error responses are added for every route. */
  responses: Record<number, RouteResponse>;
  /** Error statuses this route can answer beyond 400 and 500 (404 for an unknown id, ...). */
  errors?: number[];
  handle(input: RestInput<Q>): Promise<RestOutput> | RestOutput;
}

/** A route of any query type, as lists of routes hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRestRoute = RestRoute<any>;

/** Declares a route; the query type is inferred from its parameters. */
export function defineRoute<Q>(route: RestRoute<Q>): AnyRestRoute {
  return route as AnyRestRoute;
}
