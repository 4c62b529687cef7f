import type { Context, Middleware } from "koa";
import type { MultipartLimits } from "../http/multipart";
import type { JsonSchema, Schema } from "./json-schema";

/** Who may call a route; the auth gate decides what that means. */
export type Access = "public" | "viewer" | "operator";

/** A form (multipart/form-data) a route takes: its text fields and, in one field, its files. */
export interface FormBody<F> {
  /** Schema of the text fields (form text: numbers and booleans are read from it). */
  fields: Schema<F>;
  /** The field of the files, and the schema the OpenAPI document shows for it. */
  files: { name: string; schema: JsonSchema };
  limits: MultipartLimits;
}

/** A form as validated: its fields, of the schema's type, and the bytes of its files, in order. */
export interface FormInput<F> {
  fields: F;
  files: Buffer[];
}

/** The body a handler gets: the JSON body, or (for a route that takes one too) a form. */
export type RouteContent<B, F> = [F] extends [never]
  ? { body: B; form?: undefined }
  : { body: B; form?: undefined } | { body?: undefined; form: FormInput<F> };

/** Validated input of a route: the query, the path parameters and the body, of their schemas' types. */
export type RouteInput<B = unknown, F = unknown> = {
  query: Record<string, unknown>;
  params: Record<string, string>;
} & RouteContent<B, F>;

/**
 * One REST operation, declared once: its path, its query/body/response schemas, who may call it and
 * its handler. The schemas validate the request (ajv) and make the OpenAPI document, so the two
 * cannot drift (docs/design.md "The request pipeline"). Declare one with {@link route} so that the
 * handler's body has the type of its schema.
 */
export interface RouteSpec<B = unknown, F = unknown> {
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
  /** Schema of an application/json body. */
  body?: Schema<B>;
  /** A multipart/form-data body the route takes besides JSON. */
  form?: FormBody<F>;
  /** Largest JSON body, in bytes (default: the service's MAX_BODY_BYTES). */
  bodyLimit?: number;
  /** Status of success: 200 (default), 201 for a creation, 204 for an answer without a body. */
  status?: 200 | 201 | 204;
  /** Schema of the success body; a media type other than JSON is given in `produces`. */
  response: JsonSchema;
  produces?: string;
  /** Error statuses beyond those every route has (400, 401, 403, 404, 429, 500), and what they mean. */
  errors?: Record<string, string>;
  handler(ctx: Context, input: RouteInput<B, F>): Promise<unknown> | unknown;
}

/** A route whose handler's body (and form) have the types of its schemas. */
export function route<B = undefined, F = never>(spec: RouteSpec<B, F>): RouteSpec {
  return spec;
}

/** A middleware in front of a route that knows what access the route needs (the auth gate's slot). */
export type RouteGate = (access: Access) => Middleware | undefined;
