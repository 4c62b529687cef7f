import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/compiled-context";
import { parseLang } from "../../ngsi-ld/render/language";
import type { EntityFormat, RenderOptions } from "../../ngsi-ld/render/render-options";
import { isAbsoluteUri, isValidName } from "../../ngsi-ld/model/uri";
import { canonicalName } from "../../ngsi-ld/model/canonical-names";

const OPTION_VALUES = new Set([
  "keyValues",
  "simplified",
  "concise",
  "normalized",
  "sysAttrs",
  "noOverwrite",
  "update",
  "replace",
  "temporalValues",
  "aggregatedValues",
]);

const invalidRequest = (m: string, d: Record<string, unknown>) => new AppError("InvalidRequest", m, d);

/** A query parameter as one string (the last one if repeated), or undefined. */
export function param(ctx: Context, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** A comma-separated query parameter as a list (ETSI GS CIM 009 §6.3.x), or undefined. */
export function listParam(ctx: Context, name: string): string[] | undefined {
  const v = param(ctx, name);
  if (v === undefined) return undefined;
  const list = v.split(",").map((s) => s.trim());
  if (list.some((s) => s === ""))
    throw badRequest(`Parameter ${name} has an empty element`, { parameter: name });
  return list;
}

/** The `options` parameter as a set, refusing unknown values (§6.3.x "options"). */
export function optionsParam(ctx: Context): Set<string> {
  const list = listParam(ctx, "options") ?? [];
  for (const o of list) {
    if (!OPTION_VALUES.has(o))
      throw invalidRequest(`Unknown option ${o}`, { parameter: "options", value: o });
  }
  return new Set(list);
}

/**
 * The render options of a retrieval or query (§5.7.1, §5.7.2): `format` wins over `options`,
 * keyValues and concise exclude each other, `pick` and `omit` exclude each other.
 */
export function renderOptions(ctx: Context, ldc: CompiledContext): RenderOptions {
  const options = optionsParam(ctx);
  const format = param(ctx, "format");
  let f: EntityFormat = "normalized";
  if (format !== undefined) {
    if (!["normalized", "keyValues", "concise", "simplified"].includes(format)) {
      throw invalidRequest(`Unknown format ${format}`, { parameter: "format", value: format });
    }
    f = format === "simplified" ? "keyValues" : (format as EntityFormat);
  } else if (options.has("keyValues") && options.has("concise")) {
    throw badRequest("options keyValues and concise exclude each other", { parameter: "options" });
  } else if (options.has("keyValues") || options.has("simplified")) f = "keyValues";
  else if (options.has("concise")) f = "concise";
  const names = (p: string) => {
    const l = projectionList(ctx, p);
    return l ? new Set(l.map((n) => (n === "id" || n === "type" ? n : canonicalName(ldc, n)))) : undefined;
  };
  const pick = names("pick");
  const omit = names("omit");
  if (pick && omit) throw badRequest("pick and omit cannot be used together", { parameter: "pick" });
  if ((pick || omit) && param(ctx, "attrs") !== undefined) {
    throw badRequest("attrs cannot be combined with pick or omit", { parameter: "attrs" });
  }
  const lang = param(ctx, "lang");
  return {
    format: f,
    sysAttrs: options.has("sysAttrs"),
    attrs: names("attrs"),
    pick,
    omit,
    lang: lang !== undefined ? parseLang(lang) : undefined,
  };
}

/** The entity id of the path, which must be a URI (§5.7.1: 400 BadRequestData otherwise). */
export function pathEntityId(ctx: Context): string {
  const id = (ctx.params as Record<string, string>).entityId;
  if (!isAbsoluteUri(id)) throw badRequest(`Entity id ${JSON.stringify(id)} is not a URI`, { id });
  return id;
}

/**
 * A `pick`/`omit` list (ETSI GS CIM 009 v1.8 §4.21 projection): attribute names separated by commas;
 * the nested `{...}` projections of linked entities are refused as not supported, malformed lists are 400.
 */
function projectionList(ctx: Context, name: string): string[] | undefined {
  const v = param(ctx, name);
  if (v === undefined) return undefined;
  const list = v.split(",").map((x) => x.trim());
  for (const n of list) {
    if (n === "" || !isValidName(n) || /[{}]/.test(n)) {
      throw badRequest(`${name} is not a valid list of attribute names: ${v}`, { parameter: name, value: v });
    }
  }
  return list;
}
