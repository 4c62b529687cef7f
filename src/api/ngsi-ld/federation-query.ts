import type { Context, Next } from "koa";
import type { Distributor, Forwarding, SourceFailure } from "../../ngsi-ld/federation/distributor";
import { narrowedBatchQuery, narrowedQuery } from "../../ngsi-ld/federation/forwarded-query";
import { mergeEntities, type SourceAnswer } from "../../ngsi-ld/federation/merge-entities";
import { modeOf } from "../../ngsi-ld/federation/registration";
import type { CompiledRegistration } from "../../ngsi-ld/federation/registration-match";
import type { EntityFilter } from "../../ngsi-ld/query/query-filter";
import { shownOf, warnOfFailures } from "./federated-answers";
import { negotiate, sendNgsi } from "./negotiate";
import { ngsiState } from "./ngsi-state";
import { entityQueryFromBody, filterFromParams } from "./query-input";
import { intParam, param, setPageLinks } from "./query-params";

const st = ngsiState;

/** How a distributed query is paged (§5.7.2 limit, offset, count). */
interface Paging {
  limit: number;
  offset: number;
  count: boolean;
  /** The query string the sources get. */
  forwarded: string;
  /** The query string the local query runs with, when not the client's. */
  local?: string;
}

/**
 * With an offset, the sources and the local store are asked for every entity from the first to the end
 * of the page asked for, and the merged answer is paged here; without one, they get the request as it
 * came. `count` is answered from the merged answer.
 */
function pagingOf(ctx: Context): Paging {
  const limit = intParam(ctx, "limit", 20, Number.MAX_SAFE_INTEGER);
  const offset = intParam(ctx, "offset", 0, Number.MAX_SAFE_INTEGER);
  const count = param(ctx, "count") === "true";
  const q = new URLSearchParams(ctx.querystring);
  q.delete("count");
  if (offset > 0) {
    q.set("offset", "0");
    q.set("limit", String(offset + limit));
  }
  return {
    limit,
    offset,
    count,
    forwarded: offset > 0 || count ? q.toString() : ctx.querystring,
    local: offset > 0 ? q.toString() : undefined,
  };
}

const wantsGeoJson = (ctx: Context) =>
  ctx.accepts("application/json", "application/ld+json", "application/geo+json") === "application/geo+json";

/** Runs the local query, merges the sources' answers into it and sends the page asked for. */
async function answerMerged(
  ctx: Context,
  next: Next,
  remote: Promise<{ answers: SourceAnswer[]; failures: SourceFailure[] }>,
  p: Paging,
): Promise<void> {
  const original = ctx.querystring;
  if (p.local !== undefined) ctx.querystring = p.local;
  try {
    await next();
  } finally {
    ctx.querystring = original;
  }
  const local = shownOf(ctx.body);
  const { answers, failures } = await remote;
  const merged = mergeEntities(local, answers);
  const type = negotiate(ctx, ["application/json", "application/ld+json"]);
  ctx.remove("Link");
  ctx.remove("NGSILD-Results-Count");
  sendNgsi(ctx, 200, merged.slice(p.offset, p.offset + p.limit), type);
  if (p.count) ctx.set("NGSILD-Results-Count", String(merged.length));
  setPageLinks(ctx, p.offset, p.limit, merged.length > p.offset + p.limit);
  warnOfFailures(ctx, failures);
}

/**
 * GET /entities distributed (§5.7.2, §4.3.6): sent as GET /entities to the registrations naming
 * queryEntity that match the filter (narrowed for exclusive ones) while the local answer is made.
 */
export async function federatedQuery(
  ctx: Context,
  next: Next,
  dist: Distributor,
  fwd: Forwarding,
): Promise<void> {
  const s = st(ctx);
  if (wantsGeoJson(ctx)) return next();
  const filter = filterFromParams(ctx, s.ldContext);
  const crs = dist.matching(s.tenant, filter, "queryEntity");
  if (crs.length === 0) return next();
  const p = pagingOf(ctx);
  const queryFor = (cr: CompiledRegistration) =>
    modeOf(cr.record.reg) === "exclusive" ? narrowedQuery(cr, filter, p.forwarded, s.ldContext) : p.forwarded;
  const req = (cr: CompiledRegistration) => ({
    method: "GET" as const,
    path: "/entities",
    query: queryFor(cr),
  });
  return answerMerged(ctx, next, dist.read(crs, req, fwd, s.ldContext), p);
}

/**
 * POST /entityOperations/query distributed (§5.7.2 through §6.23, §4.3.6): the Query body is sent as it
 * came (narrowed for exclusive registrations) to the registrations naming queryBatch that match its
 * filter, while the local answer is made; the answers are merged and paged as for GET /entities. A body
 * the broker cannot read is answered locally (400).
 */
export async function federatedBatchQuery(
  ctx: Context,
  next: Next,
  dist: Distributor,
  fwd: Forwarding,
): Promise<void> {
  const s = st(ctx);
  if (wantsGeoJson(ctx)) return next();
  let filter: EntityFilter;
  try {
    filter = entityQueryFromBody(s.body, s.ldContext).filter;
  } catch {
    return next();
  }
  const crs = dist.matching(s.tenant, filter, "queryBatch");
  if (crs.length === 0) return next();
  const p = pagingOf(ctx);
  const body = s.body as Record<string, unknown>;
  const req = (cr: CompiledRegistration) => ({
    method: "POST" as const,
    path: "/entityOperations/query",
    query: p.forwarded,
    body: JSON.stringify(
      modeOf(cr.record.reg) === "exclusive" ? narrowedBatchQuery(cr, filter, body, s.ldContext) : body,
    ),
    contentType: s.bodyType,
  });
  return answerMerged(ctx, next, dist.read(crs, req, fwd, s.ldContext), p);
}
