import { js, type JsonSchema } from "./json-schema";
import type { AnyRestRoute } from "./rest-route";

/** Fixed parts of an OpenAPI document: title, version, description and the server prefix. */
export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  /** The face's prefix, e.g. `/api/v1`. */
  server: string;
}

/** The REST error body (traffic-service-interface.md §7), shared by every route. */
export const ERROR_BODY_SCHEMA: JsonSchema = js.object({
  error: {
    type: "object",
    properties: {
      code: js.str(),
      message: js.str(),
      details: { type: "object" },
      request_id: js.str(),
      retry_after: js.int(),
    },
    required: ["code", "message", "details"],
    additionalProperties: false,
  },
});

const ERROR_TEXT: Record<number, string> = {
  400: "INVALID_PARAMETER (a bad value; details has parameter, value, expected) or INVALID_REQUEST (a missing parameter)",
  401: "UNAUTHORIZED: missing or invalid token",
  403: "FORBIDDEN: the role does not allow this",
  404: "NOT_FOUND: no such resource",
  413: "The body is larger than the limit",
  415: "The body is not application/json",
  429: "RATE_LIMIT_EXCEEDED, with retry_after",
  500: "INTERNAL_ERROR, with request_id",
};

/**
 * An OpenAPI 3.1 document generated from declared routes and component schemas: every parameter,
 * body and response schema is the one the routes validate with.
 */
export function openApiDocument(
  info: OpenApiInfo,
  routes: readonly AnyRestRoute[],
  schemas: Record<string, JsonSchema>,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const pathParams = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      description: r.pathParams?.[m[1]],
      schema: js.str(),
    }));
    const queryParams = Object.entries(r.query).map(([name, p]) => ({
      name,
      in: "query",
      required: p.required ?? false,
      ...(p.description ? { description: p.description } : {}),
      schema: p.schema,
      ...(p.list ? { style: "form", explode: true } : {}),
    }));
    const responses: Record<string, unknown> = {};
    for (const [status, res] of Object.entries(r.responses)) {
      responses[status] = {
        description: res.description,
        content: {
          [res.contentType ?? "application/json"]: {
            schema: res.schema ?? { type: "string", format: "binary" },
          },
        },
      };
    }
    const errors = [400, ...(r.body ? [413, 415] : []), ...(r.errors ?? []), 500];
    for (const status of errors.sort()) {
      responses[String(status)] = {
        description: ERROR_TEXT[status] ?? "Error",
        content: { "application/json": { schema: js.ref("ErrorBody") } },
      };
    }
    (paths[r.path] ??= {})[r.method] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: r.tags,
      parameters: [...pathParams, ...queryParams],
      ...(r.body
        ? {
            requestBody: {
              required: true,
              description: r.body.description,
              content: { "application/json": { schema: r.body.schema } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.server }],
    paths,
    components: { schemas: { ErrorBody: ERROR_BODY_SCHEMA, ...schemas } },
  };
}
