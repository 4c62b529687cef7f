import type { JsonSchema, RouteSpec } from "./schema-route";

/** The `components.schemas` entry of the error body (§7). */
export const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "details"],
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        details: { type: "object" },
        request_id: { type: "string" },
        retry_after: { type: "integer" },
      },
    },
  },
};

/** Koa path -> OpenAPI path: "/cameras/:camera_id" -> "/cameras/{camera_id}". */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z_]+)/g, "{$1}");
}

/**
 * The request bodies of a route by media type: the JSON body's schema, and the form's (its fields and
 * its files' field), the same schemas the route validates with.
 */
function requestContent(s: RouteSpec): Record<string, { schema: JsonSchema }> | undefined {
  const content: Record<string, { schema: JsonSchema }> = {};
  if (s.body) content["application/json"] = { schema: s.body };
  if (s.form) {
    const fields = s.form.fields;
    const properties = { ...(fields.properties as object), [s.form.files.name]: s.form.files.schema };
    content["multipart/form-data"] = { schema: { ...fields, properties } };
  }
  return Object.keys(content).length ? content : undefined;
}

/** How every request body reads blank text (blank-optionals.ts), said once for the whole document. */
const BLANK_OPTIONALS =
  "In request bodies, an optional text field that is blank (empty or spaces only) is taken as absent, " +
  "so a form's empty fields need not be left out; the length limits shown apply to text that is given.";

/**
 * The OpenAPI 3.1 document of a REST face, made from the same route specs (and schemas) the routes
 * validate with.
 */
export function buildOpenApi(
  info: { title: string; version: string; description: string },
  serverUrl: string,
  specs: readonly RouteSpec[],
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const s of specs) {
    const params: unknown[] = [];
    for (const [name, description] of Object.entries(s.params ?? {})) {
      params.push({ name, in: "path", required: true, description, schema: { type: "string" } });
    }
    const q = (s.query?.properties ?? {}) as Record<string, JsonSchema>;
    const required = (s.query?.required ?? []) as string[];
    for (const [name, schema] of Object.entries(q)) {
      const { description, ...rest } = schema;
      params.push({ name, in: "query", required: required.includes(name), description, schema: rest });
    }
    const err = (d: string) => ({
      description: d,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
    const responses: Record<string, unknown> = {
      [String(s.status ?? 200)]:
        s.status === 204
          ? { description: "Done, no body" }
          : {
              description: s.status === 201 ? "Created" : "Success",
              content: { [s.produces ?? "application/json"]: { schema: s.response } },
            },
      "400": err(
        "INVALID_PARAMETER (a bad value; details.parameter, value, expected) or INVALID_REQUEST (a required parameter missing)",
      ),
      "500": err("INTERNAL_ERROR, with request_id"),
    };
    if (s.params || s.notFound || Object.keys(q).some((k) => k.endsWith("_id")))
      responses["404"] = err("NOT_FOUND (an unknown id, or no data yet)");
    if (s.access !== "public") {
      responses["401"] = err("UNAUTHORIZED");
      responses["403"] = err("FORBIDDEN");
      responses["429"] = err("RATE_LIMIT_EXCEEDED");
    }
    const content = requestContent(s);
    if (content) {
      const types = Object.keys(content).join(" or ");
      responses["413"] = err("INVALID_REQUEST: the body is over its size limit");
      responses["415"] = err(`INVALID_REQUEST: the body is not ${types}`);
    }
    for (const [status, d] of Object.entries(s.errors ?? {})) responses[status] = err(d);
    const op: Record<string, unknown> = {
      operationId: s.operationId,
      summary: s.summary,
      tags: [s.tag],
      parameters: params,
      responses,
    };
    if (s.access !== "public") op["x-required-role"] = s.access;
    if (content) op.requestBody = { required: true, content };
    (paths[openApiPath(s.path)] ??= {})[s.method] = op;
  }
  return {
    openapi: "3.1.0",
    info: { ...info, description: `${info.description}\n\n${BLANK_OPTIONALS}` },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
  };
}

/**
 * `specs` with `GET /openapi.json` added: the face's OpenAPI 3.1 document, built once from every route
 * (itself included) on the first request.
 */
export function withOpenApiRoute(
  specs: RouteSpec[],
  info: { title: string; version: string; description: string },
  serverUrl: string,
): RouteSpec[] {
  let doc: Record<string, unknown> | undefined;
  specs.push({
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApi",
    summary: "This OpenAPI 3.1 document",
    tag: "meta",
    access: "public",
    response: { type: "object" },
    handler: () => (doc ??= buildOpenApi(info, serverUrl, specs)),
  });
  return specs;
}
