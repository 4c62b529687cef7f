import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { parseLang } from "../../ngsi-ld/render/language";
import type { EntityFormat, RenderOptions } from "../../ngsi-ld/render/render-options";
import type { JoinMode } from "../../ngsi-ld/render/linked-entities";
import { isAbsoluteUri, isValidName } from "../../ngsi-ld/model/uri";
import { parseProjection, type Projection } from "../../ngsi-ld/render/projection";
import { canonicalName } from "../../ngsi-ld/model/canonical-names";
import { NOT_ATTRIBUTES, refuseReserved } from "../../ngsi-ld/model/reserved";
import { checkIdLength } from "../../ngsi-ld/model/limits";

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

/** `pick` and `omit` (ETSI GS CIM 009 v1.8 §4.21), names canonical for `ldc`. */
export function projectionParams(
  ctx: Context,
  ldc: CompiledContext,
): { pick?: Projection; omit?: Projection } {
  const projection = (p: string) => {
    const v = param(ctx, p);
    return v === undefined ? undefined : parseProjection(v, p, (n) => canonicalName(ldc, n));
  };
  return { pick: projection("pick"), omit: projection("omit") };
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
  const attrs = listParam(ctx, "attrs");
  const badAttr = attrs?.find((n) => !isValidName(n));
  if (badAttr !== undefined)
    throw badRequest(`attrs: ${badAttr} is not a valid attribute name`, { parameter: "attrs" });
  const { pick, omit } = projectionParams(ctx, ldc);
  if (pick && omit) throw badRequest("pick and omit cannot be used together", { parameter: "pick" });
  if ((pick || omit) && param(ctx, "attrs") !== undefined) {
    throw badRequest("attrs cannot be combined with pick or omit", { parameter: "attrs" });
  }
  const lang = param(ctx, "lang");
  const datasetIds = listParam(ctx, "datasetId");
  return {
    datasetIds: datasetIds ? new Set(datasetIds) : undefined,
    format: f,
    sysAttrs: options.has("sysAttrs"),
    attrs: attrs ? new Set(attrs.map((n) => canonicalName(ldc, n))) : undefined,
    pick,
    omit,
    lang: lang !== undefined ? parseLang(lang) : undefined,
  };
}

/**
 * `join` and `joinLevel` (ETSI GS CIM 009 v1.8 §5.7.1, §5.7.2, §4.5.23), from the query string or, for
 * POST /entityOperations/query, from the Query body's members; 400 when malformed.
 */
export function joinParams(
  ctx: Context,
  body: { join?: unknown; joinLevel?: unknown } = {},
): { join?: JoinMode; level: number } {
  const join = body.join ?? param(ctx, "join");
  if (join !== undefined && join !== "inline" && join !== "flat") {
    throw badRequest(`join must be inline or flat, got ${String(join)}`, { parameter: "join" });
  }
  const level = Number(body.joinLevel ?? param(ctx, "joinLevel") ?? "1");
  if (!Number.isInteger(level) || level < 0) throw badRequest("joinLevel must be a whole number");
  return { join, level };
}

/** The path parameter `name`, which must be a URI (400 BadRequestData naming `label` otherwise). */
export function pathUri(ctx: Context, name: string, label: string): string {
  const id = (ctx.params as Record<string, string>)[name];
  if (!isAbsoluteUri(id)) throw badRequest(`${label} ${JSON.stringify(id)} is not a URI`, { id });
  return id;
}

/** The entity id of the path, which must be a URI (§5.7.1: 400 BadRequestData otherwise). */
export function pathEntityId(ctx: Context): string {
  const id = pathUri(ctx, "entityId", "Entity id");
  checkIdLength(id, "Entity id");
  refuseReserved(id, "Entity id");
  return id;
}

/**
 * The `{attrId}` of an attribute path as given: `id`, `type`, `@id`, `@type` and `@context` are members of
 * the entity, not attributes (§4.5.1), and a name in the broker's namespaces is no client's: 400 for both.
 */
export function pathAttrId(ctx: Context, ldc: CompiledContext): string {
  const a = (ctx.params as Record<string, string>).attrId;
  if (NOT_ATTRIBUTES.has(a))
    throw badRequest(`${a} is a member of the entity, not an attribute`, { attrId: a });
  refuseReserved(ldc.expandTerm(a), "Attribute name");
  return a;
}

/** A whole-number query parameter from 0 to `max` (`limit`, `offset`, §6.3.x); 400 otherwise. */
export function intParam(ctx: Context, name: string, def: number, max: number): number {
  const raw = param(ctx, name);
  if (raw === undefined) return def;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    throw badRequest(`${name} must be a whole number from 0 to ${max}`, { parameter: name, value: raw });
  }
  return Number(raw);
}

/**
 * The paging parameters of a list (§6.3.13 pagination, §6.3.15 count): `limit` (default 20, at most
 * `maxLimit`), `offset` and `count`; `limit=0` only with `count=true` (400 otherwise).
 */
export function pageParams(
  ctx: Context,
  maxLimit: number,
): { limit: number; offset: number; count: boolean } {
  const limit = intParam(ctx, "limit", 20, maxLimit);
  const offset = intParam(ctx, "offset", 0, Number.MAX_SAFE_INTEGER);
  const count = param(ctx, "count") === "true";
  if (limit === 0 && !count) throw badRequest("limit=0 needs count=true", { parameter: "limit" });
  return { limit, offset, count };
}

/** Link headers to the next and previous pages (§6.3.13 pagination). */
export function setPageLinks(ctx: Context, offset: number, limit: number, hasMore: boolean): void {
  const links: string[] = [];
  const url = (o: number) => {
    const q = new URLSearchParams(ctx.querystring);
    q.set("offset", String(o));
    q.set("limit", String(limit));
    return `<${ctx.path}?${q.toString()}>`;
  };
  if (limit > 0 && hasMore) links.push(`${url(offset + limit)}; rel="next"; type="application/ld+json"`);
  if (limit > 0 && offset > 0)
    links.push(`${url(Math.max(0, offset - limit))}; rel="prev"; type="application/ld+json"`);
  if (links.length) ctx.append("Link", links);
}
