import type Router from "@koa/router";
import type { Context } from "koa";
import { badRequest } from "../../errors";
import type { EntityRepository } from "../../ngsi-ld/entities/entity-repository";
import { canonicalName } from "../../ngsi-ld/model/canonical-names";
import { isAbsoluteUri } from "../../ngsi-ld/model/uri";
import { compileIdPattern, queryEntities, refuseUnsupported } from "../../ngsi-ld/query/entity-query";
import { renderEntity } from "../../ngsi-ld/render/render-entity";
import { renderFeatureCollection } from "../../ngsi-ld/render/render-geojson";
import { negotiate, sendNgsi } from "./negotiate";
import type { NgsiState } from "./ngsi-state";
import { listParam, param, renderOptions } from "./query-params";

const UNSUPPORTED = ["q", "georel", "geometry", "coordinates", "scopeQ", "csf"];

function intParam(ctx: Context, name: string, def: number, max: number): number {
  const raw = param(ctx, name);
  if (raw === undefined) return def;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    throw badRequest(`${name} must be a whole number from 0 to ${max}`, { parameter: name, value: raw });
  }
  return Number(raw);
}

/**
 * GET /entities (ETSI GS CIM 009 v1.8 §6.4.3.2): selection by `type` (comma list), `id`, `idPattern`,
 * `attrs`; `limit`/`offset` with the `NGSILD-Results-Count` header for `count=true` and `Link` rel=next/prev.
 */
export function registerQueryRoutes(router: Router, repo: EntityRepository, maxLimit: number): void {
  router.get("/entities", async (ctx) => {
    const s = st(ctx);
    for (const p of UNSUPPORTED) if (param(ctx, p) !== undefined) refuseUnsupported(p);
    const typeList = listParam(ctx, "type");
    if (typeList?.some((t) => /[|;()]/.test(t))) refuseUnsupported("type expressions");
    const ids = listParam(ctx, "id");
    if (ids?.some((i) => !isAbsoluteUri(i))) throw badRequest("id must list URIs", { parameter: "id" });
    const idPattern = param(ctx, "idPattern");
    const attrs = listParam(ctx, "attrs");
    if (!typeList && !ids && !idPattern && !attrs) {
      throw badRequest("A query needs at least one of type, id, idPattern, attrs, q or a geo-query");
    }
    const limit = intParam(ctx, "limit", 20, maxLimit);
    const offset = intParam(ctx, "offset", 0, Number.MAX_SAFE_INTEGER);
    const count = param(ctx, "count") === "true";
    if (limit === 0 && !count) throw badRequest("limit=0 needs count=true", { parameter: "limit" });
    const opts = renderOptions(ctx, s.ldContext);
    const type = negotiate(ctx, ["application/json", "application/ld+json", "application/geo+json"]);
    const page = await queryEntities(
      repo,
      s.tenant,
      {
        types: typeList?.map((t) => s.ldContext.expandTerm(t)),
        ids,
        idPattern: idPattern ? compileIdPattern(idPattern) : undefined,
        attrs: attrs?.map((a) => canonicalName(s.ldContext, a)),
        limit,
        offset,
      },
      s.ldContext,
    );
    if (count) ctx.set("NGSILD-Results-Count", String(page.total));
    setPageLinks(ctx, offset, limit, page.total);
    const geoProp = param(ctx, "geometryProperty");
    const body =
      type === "application/geo+json"
        ? renderFeatureCollection(
            page.entities,
            opts,
            geoProp ? canonicalName(s.ldContext, geoProp) : undefined,
          )
        : page.entities.map((e) => renderEntity(e, opts));
    sendNgsi(ctx, 200, body, type);
  });
}

const st = (ctx: Context) => ctx.state as NgsiState;

/** Link headers to the next and previous pages (§6.3.13 pagination). */
function setPageLinks(ctx: Context, offset: number, limit: number, total: number): void {
  const links: string[] = [];
  const url = (o: number) => {
    const q = new URLSearchParams(ctx.querystring);
    q.set("offset", String(o));
    q.set("limit", String(limit));
    return `<${ctx.path}?${q.toString()}>`;
  };
  if (limit > 0 && offset + limit < total)
    links.push(`${url(offset + limit)}; rel="next"; type="application/ld+json"`);
  if (limit > 0 && offset > 0)
    links.push(`${url(Math.max(0, offset - limit))}; rel="prev"; type="application/ld+json"`);
  if (links.length) ctx.append("Link", links);
}
