import type Router from "@koa/router";
import type { Context } from "koa";
import { Ajv2020, type ValidateFunction, type ErrorObject } from "ajv/dist/2020";
import { AppError } from "../../errors";
import { parseJson, readBody } from "../http/read-body";
import type { JsonSchema } from "./json-schema";
import type { AnyRestRoute } from "./rest-route";

/**
 * Mounts declared routes on a router: parses the query with each parameter's parser, reads and
 * validates a JSON body against the route's schema (ajv, JSON Schema 2020-12; its `#/components/schemas/X`
 * references resolve against `opts.schemas`, as in the OpenAPI document), calls the handler and
 * writes its answer. Unknown query parameters are ignored.
 */
export function registerRestRoutes(
  router: Router,
  routes: readonly AnyRestRoute[],
  opts: { maxBodyBytes: number; schemas: Record<string, JsonSchema> },
): void {
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  for (const route of routes) {
    const validate = route.body
      ? ajv.compile({ ...route.body.schema, components: { schemas: opts.schemas } })
      : undefined;
    const entries = Object.entries(route.query) as [string, AnyRestRoute["query"][string]][];
    const koaPath = route.path.replace(/\{([^}]+)\}/g, ":$1");
    router[route.method](route.operationId, koaPath, async (ctx: Context) => {
      const query: Record<string, unknown> = {};
      for (const [name, param] of entries) {
        const raw = ctx.query[name];
        const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
        if (values.length === 0 && param.required) {
          throw new AppError("InvalidRequest", `Missing required parameter '${name}'`, { parameter: name });
        }
        query[name] = param.parse(values, name);
      }
      const body = validate ? await readJsonBody(ctx, validate, opts.maxBodyBytes) : undefined;
      const out = await route.handle({ query, params: ctx.params as Record<string, string>, body, ctx });
      ctx.status = out.status ?? 200;
      if (out.headers) for (const [k, v] of Object.entries(out.headers)) ctx.set(k, v);
      if (out.type) ctx.type = out.type;
      ctx.body = out.body;
    });
  }
}

async function readJsonBody(ctx: Context, validate: ValidateFunction, limit: number): Promise<unknown> {
  if (!ctx.is("application/json")) {
    throw new AppError("UnsupportedMediaType", "The body must be application/json");
  }
  const body = parseJson(await readBody(ctx, limit));
  if (!validate(body)) throw bodyError(validate.errors?.[0]);
  return body;
}

/** The first schema violation of a body: a missing field is INVALID_REQUEST, a bad value INVALID_PARAMETER. */
function bodyError(e: ErrorObject | undefined): AppError {
  if (!e) return new AppError("InvalidRequest", "The body does not match the schema");
  const at = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (e.keyword === "required") {
    const field = [at, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join(".");
    return new AppError("InvalidRequest", `Missing required field '${field}'`, { parameter: field });
  }
  if (e.keyword === "additionalProperties") {
    const field = [at, (e.params as { additionalProperty: string }).additionalProperty]
      .filter(Boolean)
      .join(".");
    return new AppError("BadRequestData", `Unknown field '${field}'`, {
      parameter: field,
      expected: "no such field",
    });
  }
  return new AppError(
    "BadRequestData",
    `Invalid value for '${at || "body"}': ${e.message ?? "not allowed"}`,
    {
      parameter: at || "body",
      expected: e.message ?? "a value allowed by the schema",
    },
  );
}
