import type Ajv from "ajv";
import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";
import { readMultipart, type MultipartLimits } from "../http/multipart";
import { parseJson, readBody } from "../http/read-body";
import { checker } from "./request-validation";
import type { RouteContent, RouteSpec } from "./route-spec";

/** True for a multipart/form-data request. */
export const isMultipart = (ctx: Context): boolean => ctx.is("multipart/form-data") === "multipart/form-data";

/**
 * A multipart/form-data body read under `limits`: its text fields, an empty one counting as absent (a
 * browser sends an input left empty), and the bytes of its files, which must come in `fileField`.
 */
export async function readForm(
  ctx: Context,
  limits: MultipartLimits,
  fileField: string,
): Promise<{ fields: Record<string, string>; files: Buffer[] }> {
  const form = await readMultipart(ctx, limits);
  const stray = form.files.find((f) => f.field !== fileField);
  if (stray)
    throw badRequest(`Files go in the field '${fileField}', not '${stray.field}'`, {
      parameter: stray.field,
      value: "a file",
      expected: `no file (files go in '${fileField}')`,
    });
  const fields = Object.fromEntries(Object.entries(form.fields).filter(([, v]) => v !== ""));
  return { fields, files: form.files.map((f) => f.bytes) };
}

/**
 * The reader of a route's body, by its media type: JSON checked against `spec.body` (without type
 * coercion) or, where the route takes one, a form whose fields are checked against `spec.form.fields`.
 * Another media type is a 415; a body over the route's limit a 413. A route without a body reads none.
 */
export function bodyReader(
  spec: RouteSpec,
  ajv: { json: Ajv; form: Ajv },
  maxBodyBytes: number,
): (ctx: Context) => Promise<RouteContent<unknown, unknown>> {
  const { body, form } = spec;
  if (!body && !form) return () => Promise.resolve({ body: undefined });
  const json = body ? checker(ajv.json, body, "body") : undefined;
  const fields = form ? checker(ajv.form, form.fields, "form") : undefined;
  const limit = spec.bodyLimit ?? maxBodyBytes;
  const types = [json && "application/json", form && "multipart/form-data"].filter(Boolean).join(" or ");
  return async (ctx) => {
    if (form && fields && isMultipart(ctx)) {
      const f = await readForm(ctx, form.limits, form.files.name);
      return { form: { fields: fields(f.fields), files: f.files } };
    }
    if (!json || ctx.is("application/json", "+json") === false)
      throw new AppError("UnsupportedMediaType", `Send ${types}`);
    return { body: json(parseJson(await readBody(ctx, limit))) };
  };
}
