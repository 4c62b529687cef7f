import type Router from "@koa/router";
import type { Context } from "koa";
import { canonicalName } from "../../ngsi-ld/model/canonical-names";
import { entityQueryFromBody, filterFromParams, type QueryBodyExtras } from "./query-input";
import {
  pageEntities,
  queryPageIds,
  type EntityQuery,
  type QuerySources,
} from "../../ngsi-ld/query/entity-query";
import type { RenderedEntityCache } from "../../ngsi-ld/query/rendered-entity-cache";
import { pageTexts } from "../../ngsi-ld/query/rendered-page";
import type { EntityFilter } from "../../ngsi-ld/query/query-filter";
import { parseLang } from "../../ngsi-ld/render/language";
import { renderFeatureCollection } from "../../ngsi-ld/render/render-geojson";
import { negotiate, sendNgsi, sendNgsiJsonArray } from "./negotiate";
import { ngsiState } from "./ngsi-state";
import { joinParams, pageParams, param, renderOptions, setPageLinks } from "./query-params";
import { renderJoinedList } from "../../ngsi-ld/render/linked-entities";
import { renderEntity } from "../../ngsi-ld/render/render-entity";
import type { RenderOptions } from "../../ngsi-ld/render/render-options";
import { parseOrderBy, sortEntities, type OrderKey } from "../../ngsi-ld/query/order-by";

const st = ngsiState;

/**
 * Query entities (ETSI GS CIM 009 v1.8 §5.7.2): GET /entities (§6.4.3.2) with `type` expressions, `id`,
 * `idPattern`, `attrs`, `q`, `scopeQ`, and POST /entityOperations/query (§6.23) with a Query body;
 * both with `limit`/`offset`, `count=true` (`NGSILD-Results-Count`), `Link` rel=next/prev, the render
 * options, `datasetId`, `join`/`joinLevel` and GeoJSON (`geometryProperty`).
 */
export function registerQueryRoutes(
  router: Router,
  src: QuerySources,
  rendered: RenderedEntityCache,
  maxLimit: number,
): void {
  const answer = async (ctx: Context, filter: EntityFilter, body: QueryBodyExtras = {}) => {
    const { lang } = body;
    const s = st(ctx);
    const { limit, offset, count } = pageParams(ctx, maxLimit);
    const opts = renderOptions(ctx, s.ldContext);
    if (filter.attrs) opts.attrs = new Set(filter.attrs.names);
    if (lang !== undefined) opts.lang = parseLang(lang);
    const type = negotiate(ctx, ["application/json", "application/ld+json", "application/geo+json"]);
    const orderBy = param(ctx, "orderBy");
    if (orderBy !== undefined && type !== "application/geo+json") {
      await sortedAnswer(
        ctx,
        filter,
        parseOrderBy(orderBy, s.ldContext),
        { limit, offset, count },
        opts,
        type,
      );
      return;
    }
    const query: EntityQuery = { ...filter, limit, offset, count };
    const generation = rendered.generation;
    const page = await queryPageIds(src, s.tenant, query, s.ldContext);
    if (page.total !== undefined) ctx.set("NGSILD-Results-Count", String(page.total));
    setPageLinks(ctx, offset, limit, page.hasMore);
    const geoProp = param(ctx, "geometryProperty");
    const { join, level } = joinParams(ctx, body);
    if (type === "application/geo+json") {
      const geometry = geoProp ? canonicalName(s.ldContext, geoProp) : undefined;
      const entities = await pageEntities(src, s.tenant, s.ldContext, page);
      sendNgsi(ctx, 200, renderFeatureCollection(entities, opts, geometry), type);
      return;
    }
    // an entity of which pick/omit/datasetId leave no member is not listed (§4.21)
    if (!join) {
      const texts = await pageTexts(src, rendered, s.tenant, s.ldContext, page, opts, generation);
      sendNgsiJsonArray(ctx, 200, texts, type);
      return;
    }
    const read = (ids: string[]) => src.views.read(s.tenant, ids, s.ldContext);
    const entities = await pageEntities(src, s.tenant, s.ldContext, page);
    const shown = await renderJoinedList(entities, join, level, opts, read);
    sendNgsi(
      ctx,
      200,
      shown.filter((e) => Object.keys(e).length > 0),
      type,
    );
  };

  /**
   * `orderBy` (ETSI GS CIM 009 v1.9 §4.23): every match is read and sorted, then the page is cut, so its
   * cost grows with the number of matches, not with the page.
   */
  const sortedAnswer = async (
    ctx: Context,
    filter: EntityFilter,
    keys: OrderKey[],
    p: { limit: number; offset: number; count: boolean },
    opts: RenderOptions,
    type: "application/json" | "application/ld+json",
  ) => {
    const s = st(ctx);
    const all = { ...filter, limit: Number.MAX_SAFE_INTEGER, offset: 0, count: false };
    const page = await queryPageIds(src, s.tenant, all, s.ldContext);
    const sorted = sortEntities(await pageEntities(src, s.tenant, s.ldContext, page), keys);
    if (p.count) ctx.set("NGSILD-Results-Count", String(sorted.length));
    setPageLinks(ctx, p.offset, p.limit, sorted.length > p.offset + p.limit);
    const shown = sorted.slice(p.offset, p.offset + p.limit).map((e) => renderEntity(e, opts));
    sendNgsi(
      ctx,
      200,
      shown.filter((e) => Object.keys(e).length > 0),
      type,
    );
  };

  router.get("/entities", async (ctx) => {
    const filter = filterFromParams(ctx, st(ctx).ldContext);
    await answer(ctx, filter);
  });

  router.post("/entityOperations/query", async (ctx) => {
    const s = st(ctx);
    const { filter, ...extras } = entityQueryFromBody(s.body, s.ldContext);
    await answer(ctx, filter, extras);
  });
}
