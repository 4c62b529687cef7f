import type { Context } from "koa";
import { badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { isObject } from "../../ngsi-ld/model/normalize-attribute";
import { entitySelectors } from "../../ngsi-ld/model/entity-selectors";
import { buildFilter } from "../../ngsi-ld/query/build-filter";
import type { GeoQueryParams } from "../../ngsi-ld/query/geo";
import { refuseUnsupported } from "../../ngsi-ld/query/entity-query";
import type { EntityFilter } from "../../ngsi-ld/query/query-filter";
import { listParam, param } from "./query-params";

/**
 * The filter of GET /entities (ETSI GS CIM 009 v1.8 §6.4.3.2): `type`, `id`, `idPattern`, `attrs`,
 * `q`, `scopeQ`, geo-queries. A query needs one of `type`, `idPattern`, `attrs`, `q`, a geo-query or
 * `local=true` (ids alone are not enough, ETSI suite 019_03_05): 400 otherwise.
 */
export function filterFromParams(ctx: Context, ldc: CompiledContext): EntityFilter {
  if (param(ctx, "csf") !== undefined) refuseUnsupported("csf");
  const type = param(ctx, "type");
  const ids = listParam(ctx, "id");
  const idPattern = param(ctx, "idPattern");
  const attrs = listParam(ctx, "attrs");
  const q = param(ctx, "q");
  const scopeQ = param(ctx, "scopeQ");
  const local = param(ctx, "local") === "true";
  const geo = {
    georel: param(ctx, "georel"),
    geometry: param(ctx, "geometry"),
    coordinates: param(ctx, "coordinates"),
    geoproperty: param(ctx, "geoproperty"),
  };
  const hasGeo = geo.georel !== undefined || geo.geometry !== undefined || geo.coordinates !== undefined;
  if (type === undefined && idPattern === undefined && !attrs && q === undefined && !hasGeo && !local) {
    throw badRequest(
      "A query needs at least one of type, idPattern, attrs, q, a geo-query or local=true (ids alone are not enough)",
    );
  }
  const hasSelector = type !== undefined || ids || idPattern !== undefined;
  return buildFilter(
    {
      selectors: hasSelector ? [{ type, ids, idPattern }] : undefined,
      attrs,
      q,
      scopeQ,
      geo: { params: geo },
    },
    ldc,
  );
}

const str = (v: unknown, name: string): string | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw badRequest(`${name} must be a string`, { member: name });
  return v;
};

const strings = (v: unknown, name: string): string[] | undefined => {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x === "")) {
    throw badRequest(`${name} must be an array of names`, { member: name });
  }
  return v as string[];
};

/** Members of a Query body that shape the answer rather than select entities. */
export interface QueryBodyExtras {
  lang?: string;
  join?: unknown;
  joinLevel?: unknown;
}

/**
 * The filter of POST /entityOperations/query (ETSI GS CIM 009 v1.8 §6.23, Query data type §5.2.23):
 * `type` must be "Query"; `entities` (EntitySelectors), `attrs`, `q`, `geoQ`, `scopeQ`, `lang`, `join`,
 * `joinLevel`.
 */
export function entityQueryFromBody(
  body: unknown,
  ldc: CompiledContext,
): { filter: EntityFilter } & QueryBodyExtras {
  if (!isObject(body)) throw badRequest("The body of a query must be a Query object");
  if (body.type !== "Query") throw badRequest('A Query body needs "type": "Query"', { member: "type" });
  if (body.geoQ !== undefined && !isObject(body.geoQ))
    throw badRequest("geoQ must be an object", { member: "geoQ" });
  if (body.csf !== undefined) refuseUnsupported("csf");
  const entities = entitySelectors(body.entities);
  const attrs = strings(body.attrs, "attrs");
  const q = str(body.q, "q");
  if (!entities && !attrs && q === undefined && body.geoQ === undefined) {
    throw badRequest("A Query needs at least one of entities, attrs, q or geoQ");
  }
  const filter = buildFilter(
    {
      selectors: entities?.map((e) => ({
        type: e.type,
        ids: e.id ? [e.id] : undefined,
        idPattern: e.idPattern,
      })),
      attrs,
      q,
      scopeQ: str(body.scopeQ, "scopeQ"),
      geo: body.geoQ === undefined ? undefined : { params: body.geoQ as GeoQueryParams, in: "geoQ" },
    },
    ldc,
  );
  return { filter, lang: str(body.lang, "lang"), join: body.join, joinLevel: body.joinLevel };
}
