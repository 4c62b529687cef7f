import type Router from "@koa/router";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import type { Context, Middleware } from "koa";
import { AppError } from "../../errors";
import { parseJson, readBody } from "../http/read-body";

/** A JSON Schema (the subset the REST faces use; valid in draft-07 and 2020-12 / OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/** Who may call a route; the auth gate decides what that means. */
export type Access = "public" | "viewer" | "operator";

/** Validated input of a route. */
export interface RouteInput {
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
}

/**
 * One REST operation, declared once: its path, its query/body/response schemas, who may call it and
 * its handler. The schemas validate the request (ajv) and make the OpenAPI document, so the two
 * cannot drift (docs/design.md "The request pipeline").
 */
export interface RouteSpec {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** Koa path under the face's prefix, e.g. "/cameras/:camera_id". */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  access: Access;
  /** Object schema of the query string (properties = parameters; `required` = required ones). */
  query?: JsonSchema;
  /** Descriptions of the path parameters. */
  params?: Record<string, string>;
  /** The route answers 404 NOT_FOUND without path parameters (an unknown id in the query, no data yet). */
  notFound?: boolean;
  body?: JsonSchema;
  /**
   * Request bodies the handler reads and checks itself, by media type (the domain's rules give the
   * messages, e.g. a report's location outside the city): documented in OpenAPI, not read here.
   */
  ownBody?: Record<string, JsonSchema>;
  /** Status of success: 200 (default), 201 for a creation, 204 for an answer without a body. */
  status?: 200 | 201 | 204;
  /** Schema of the success body; a media type other than JSON is given in `produces`. */
  response: JsonSchema;
  produces?: string;
  /** Error statuses beyond those every route has (400, 401, 403, 404, 429, 500), and what they mean. */
  errors?: Record<string, string>;
  handler(ctx: Context, input: RouteInput): Promise<unknown> | unknown;
}

/** A middleware in front of a route that knows what access the route needs (the auth gate's slot). */
export type RouteGate = (access: Access) => Middleware | undefined;

/** The Ajv instance of request validation: coerces query strings, knows `date-time`. */
export function requestAjv(): Ajv {
  const ajv = new Ajv({ coerceTypes: true, allErrors: false, strict: false, useDefaults: true });
  ajv.addFormat("date-time", {
    type: "string",
    validate: (s: string) =>
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) &&
      !Number.isNaN(Date.parse(s)),
  });
  return ajv;
}

/** What a failed schema check says to the client (§7: INVALID_PARAMETER or INVALID_REQUEST). */
export function validationError(
  e: ErrorObject,
  data: Record<string, unknown>,
  schema: JsonSchema,
  where: string,
): AppError {
  if (e.keyword === "required") {
    const p = (e.params as { missingProperty: string }).missingProperty;
    return new AppError("InvalidRequest", `Missing required ${where} parameter: ${p}`, { parameter: p });
  }
  const parameter = e.instancePath.replace(/^\//, "").split("/")[0] || where;
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return new AppError("BadRequestData", `Invalid value of ${parameter}: ${e.message ?? "not allowed"}`, {
    parameter,
    value: data[parameter] ?? null,
    expected: describe(props[parameter]),
  });
}

/** A short human description of what a schema accepts. */
export function describe(s: JsonSchema | undefined): unknown {
  if (!s) return "a valid value";
  if (Array.isArray(s.enum)) return s.enum;
  if (s.format === "date-time") return "an ISO 8601 date-time, e.g. 2025-12-07T00:00:00Z";
  if (s.type === "integer" || s.type === "number") {
    const lo = s.minimum;
    const hi = s.maximum;
    const kind = s.type === "integer" ? "an integer" : "a number";
    if (lo !== undefined && hi !== undefined) return `${kind} from ${String(lo)} to ${String(hi)}`;
    if (lo !== undefined) return `${kind} >= ${String(lo)}`;
    return kind;
  }
  if (typeof s.pattern === "string") return `a string matching ${s.pattern}`;
  return typeof s.description === "string" ? s.description : "a string";
}

/**
 * The first value of each query parameter (a repeated parameter counts once), except for the
 * parameters `lists` names (array-typed in the schema): those take every value, repeated
 * (`m=a&m=b`) or comma-separated (`m=a,b`).
 */
function firstValues(
  q: Record<string, string | string[] | undefined>,
  lists: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) {
    if (lists.has(k)) {
      const all = (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => x.split(","));
      out[k] = [...new Set(all.map((x) => x.trim()).filter((x) => x !== ""))];
    } else out[k] = Array.isArray(v) ? v[0] : v;
  }
  return out;
}

/** Names of the array-typed properties of a query schema. */
function listParams(query: JsonSchema | undefined): Set<string> {
  const props = (query?.properties ?? {}) as Record<string, JsonSchema>;
  return new Set(Object.keys(props).filter((k) => props[k].type === "array"));
}

/**
 * Registers the routes on `router`: each validates its query and body against its schemas, then calls
 * its handler and sends what it returns (a Buffer with `produces` as its type, else JSON). `gate`, if
 * given, runs in front of every route with the route's access (the auth gate plugs in here).
 */
export function registerSpecRoutes(
  router: Router,
  specs: readonly RouteSpec[],
  opts: { gate?: RouteGate; maxBodyBytes: number },
): void {
  const gate = opts.gate;
  const ajv = requestAjv();
  for (const spec of specs) {
    const q: ValidateFunction | undefined = spec.query
      ? ajv.compile({ ...spec.query, type: "object" })
      : undefined;
    const b: ValidateFunction | undefined = spec.body ? ajv.compile(spec.body) : undefined;
    const lists = listParams(spec.query);
    const run: Middleware = async (ctx) => {
      const query = firstValues(ctx.query, lists);
      if (q && !q(query))
        throw validationError(q.errors![0], firstValues(ctx.query, lists), spec.query!, "query");
      const body = spec.body ? parseJson(await readBody(ctx, opts.maxBodyBytes)) : undefined;
      if (b && !b(body))
        throw validationError(b.errors![0], (body ?? {}) as Record<string, unknown>, spec.body!, "body");
      const out = await spec.handler(ctx, { query, params: ctx.params as Record<string, string>, body });
      if (spec.status === 204) {
        ctx.status = 204;
        return;
      }
      if (spec.status) ctx.status = spec.status;
      if (Buffer.isBuffer(out)) {
        ctx.type = spec.produces ?? "application/octet-stream";
        ctx.body = out;
      } else if (typeof out === "string") {
        // a handler may hand over its JSON already rendered
        ctx.type = spec.produces ?? "application/json";
        ctx.body = out;
      } else {
        // an object, or a stream the handler has typed
        ctx.body = out;
      }
    };
    const g = gate?.(spec.access);
    const chain = g ? [g, run] : [run];
    router[spec.method](spec.path, ...chain);
  }
}
