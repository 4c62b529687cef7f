import { parseOrderBy, sortEntities } from "../../ngsi-ld/query/order-by";
import type Router from "@koa/router";
import type { Context } from "koa";
import { notFound } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { Entity } from "../../ngsi-ld/model/entity";
import { isObject } from "../../ngsi-ld/model/normalize-attribute";
import { matchesFilter, type EntityFilter } from "../../ngsi-ld/query/query-filter";
import { isoTime, rowToInstance } from "../../ngsi-ld/temporal/instance-codec";
import {
  paginateEntities,
  pickEntity,
  renderPicked,
  renderTemporalEntity,
  type PickedEntity,
} from "../../ngsi-ld/temporal/render-temporal";
import type { PageRange } from "../../ngsi-ld/temporal/select-rows";
import type { TemporalEntity, TemporalIndex } from "../../ngsi-ld/temporal/temporal-index";
import { negotiate, sendNgsi } from "./negotiate";
import { ngsiState } from "./ngsi-state";
import { entityQueryFromBody, filterFromParams } from "./query-input";
import { pageParams, param, pathEntityId } from "./query-params";
import { project, temporalRequest, type TemporalRequest } from "./temporal-params";

const st = ngsiState;

/** `Content-Range` of a cut temporal answer (ETSI GS CIM 009 v1.8 §6.3.10), status 206. */
function sendRange(ctx: Context, range: PageRange | undefined): number {
  if (!range) return 200;
  ctx.set("Content-Range", `date-time ${isoTime(range.start)}-${isoTime(range.end)}/${range.size}`);
  return 206;
}

/** The current state of a temporal entity (last instance of each attribute), for `q` and geo-queries. */
function latestState(index: TemporalIndex, e: TemporalEntity, ldc: CompiledContext): Entity {
  const types = e.types.map((t) => ldc.compactIri(t));
  const out: Entity = { id: e.id, type: types };
  if (e.scope !== undefined) out.scope = e.scope as string | string[];
  for (const [attr, s] of e.attrs) {
    if (s.length) out[ldc.compactIri(attr)] = rowToInstance(index, s, s.length - 1, ldc, false);
  }
  return out;
}

/**
 * What `orderBy` sorts a temporal entity by (v1.9 §4.23): its latest instances with their system times,
 * and as the entity's createdAt / modifiedAt the earliest creation and the latest change of its attributes.
 */
function orderState(index: TemporalIndex, e: TemporalEntity, ldc: CompiledContext): Entity {
  const out: Entity = { id: e.id, type: e.types.map((t) => ldc.compactIri(t)) };
  let created: string | undefined;
  let modified: string | undefined;
  for (const [attr, s] of e.attrs) {
    if (!s.length) continue;
    const last = rowToInstance(index, s, s.length - 1, ldc, true);
    out[ldc.compactIri(attr)] = last;
    const first = rowToInstance(index, s, 0, ldc, true).createdAt as string | undefined;
    if (first !== undefined && (created === undefined || first < created)) created = first;
    const m = last.modifiedAt as string | undefined;
    if (m !== undefined && (modified === undefined || m > modified)) modified = m;
  }
  if (created !== undefined) out.createdAt = created;
  if (modified !== undefined) out.modifiedAt = modified;
  return out;
}

/** The entities a query can match: those its selectors name by id when every selector does, else all. */
function candidates(index: TemporalIndex, tenant: string, f: EntityFilter): Iterable<TemporalEntity> {
  if (!f.selectors || f.selectors.some((x) => !x.ids)) return index.entities(tenant);
  const ids = new Set(f.selectors.flatMap((x) => x.ids as string[]));
  return [...ids].map((id) => index.entity(tenant, id)).filter((e): e is TemporalEntity => !!e);
}

/**
 * The read routes of the temporal API: GET /temporal/entities/{id} (ETSI GS CIM 009 v1.8 §5.7.3, §6.19.3.1),
 * GET /temporal/entities (§5.7.4, §6.18.3.2) and POST /temporal/entityOperations/query (§6.24), with
 * `type`/`id`/`idPattern`/`q`/geo-queries/`attrs` matched on each entity's latest state, the temporal
 * query, lastN, the three representations, `limit`/`offset`/`count` over entities and temporal
 * pagination (206 + `Content-Range`) over instances.
 */
export function registerTemporalQueryRoutes(
  router: Router,
  index: TemporalIndex,
  pageLimit: number,
  maxLimit: number,
): void {
  router.get("/temporal/entities/:entityId", async (ctx) => {
    const s = st(ctx);
    const id = pathEntityId(ctx);
    const req = temporalRequest(ctx, s.ldContext, pageLimit);
    const type = negotiate(ctx, ["application/json", "application/ld+json"]);
    const e = index.entity(s.tenant, id);
    if (!e) throw notFound(`Temporal entity ${id} does not exist`, { id });
    const r = renderTemporalEntity(index, e, req.query, req.view, s.ldContext);
    if (req.view.attrs && r.attrCount === 0) {
      throw notFound(`Temporal entity ${id} has none of the attributes asked for`, { id });
    }
    const body = project(r.body, req);
    if (Object.keys(body).length === 0)
      throw notFound(`Nothing of entity ${id} is left after pick/omit`, { id });
    sendNgsi(ctx, sendRange(ctx, r.range), body, type);
  });

  const answer = (ctx: Context, filter: EntityFilter, req: TemporalRequest) => {
    const s = st(ctx);
    const type = negotiate(ctx, ["application/json", "application/ld+json"]);
    const { limit, offset, count } = pageParams(ctx, maxLimit);
    const needState = !!(filter.q || filter.geo || filter.scopeQ);
    const windowed = req.query.timerel !== undefined || req.view.attrs !== undefined;
    const orderBy = param(ctx, "orderBy");
    const keys = orderBy === undefined ? undefined : parseOrderBy(orderBy, s.ldContext);
    const matched: TemporalEntity[] = []; // with orderBy: every match, sorted before paging
    const page: PickedEntity[] = [];
    let total = 0;
    for (const e of candidates(index, s.tenant, filter)) {
      const head = { id: e.id, type: e.types.map((t) => s.ldContext.compactIri(t)) } as Entity;
      if (filter.selectors && !matchesFilter({ selectors: filter.selectors }, head, s.ldContext)) continue;
      if (filter.attrs && !filter.attrs.iris.some((a) => e.attrs.has(a))) continue;
      if (needState && !matchesFilter(filter, latestState(index, e, s.ldContext), s.ldContext)) continue;
      const pe = pickEntity(index, e, req.query, req.view);
      if (windowed && pe.names.length === 0) continue;
      total++;
      if (keys) matched.push(e);
      else if (total > offset && page.length < limit) page.push(pe);
    }
    if (keys) {
      const states = new Map(matched.map((e) => [orderState(index, e, s.ldContext), e]));
      const sorted = sortEntities([...states.keys()], keys).map((x) => states.get(x)!);
      for (const e of sorted.slice(offset, offset + limit))
        page.push(pickEntity(index, e, req.query, req.view));
    }
    const range = paginateEntities(page, req.query, req.view);
    const shown = page
      .map((pe) => project(renderPicked(index, pe, req.query, req.view, s.ldContext).body, req))
      .filter((b) => Object.keys(b).length > 0);
    if (count) ctx.set("NGSILD-Results-Count", String(total));
    sendNgsi(ctx, sendRange(ctx, range), shown, type);
  };

  router.get("/temporal/entities", async (ctx) => {
    const s = st(ctx);
    const filter = filterFromParams(ctx, s.ldContext);
    answer(ctx, filter, temporalRequest(ctx, s.ldContext, pageLimit));
  });

  router.post("/temporal/entityOperations/query", async (ctx) => {
    const s = st(ctx);
    const body = s.body;
    const { filter } = entityQueryFromBody(body, s.ldContext);
    const tq = isObject(body) && isObject(body.temporalQ) ? body.temporalQ : {};
    const fromBody = (n: string) => {
      const v = tq[n === "timeproperty" ? "timeproperty" : n] ?? param(ctx, n);
      return v === undefined ? undefined : String(v);
    };
    const attrs = isObject(body) && Array.isArray(body.attrs) ? (body.attrs as string[]) : undefined;
    answer(ctx, filter, temporalRequest(ctx, s.ldContext, pageLimit, fromBody, attrs));
  });
}
