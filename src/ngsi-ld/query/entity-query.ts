import { AppError } from "../../errors";
import { compileUserPattern, type UserPattern } from "./user-pattern";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { Entity } from "../model/entity";
import { FALSE, MAYBE, Tri } from "./expression";
import type { EntityViewCache } from "./entity-view-cache";
import type { GeoIndex } from "./geo";
import type { AttributeIndex } from "./index/attribute-index";
import { candidates } from "./query-candidates";
import { EntityFilter, indexedMatch, matchesFilter } from "./query-filter";

/** An entity query (ETSI GS CIM 009 v1.8 §5.7.2): the filter and the page wanted. */
export interface EntityQuery extends EntityFilter {
  limit: number;
  offset: number;
  /** Whether the total number of matches is wanted (`count=true`). */
  count: boolean;
}

/** One page of a query answer. */
export interface QueryPage {
  entities: Entity[];
  /** Total number of matches, when `count` was asked for. */
  total?: number;
  /** True if matches follow this page. */
  hasMore: boolean;
}

/** One page of a query answer as entity ids, with those of its entities the query already decoded. */
export interface QueryPageIds {
  ids: string[];
  /** Entities of `ids` decoded while checking them (the rest are read by {@link pageEntities}). */
  read: Map<string, Entity>;
  /** Total number of matches, when `count` was asked for. */
  total?: number;
  /** True if matches follow this page. */
  hasMore: boolean;
}

/** What a query reads: the derived indexes and the decoded entities (docs/design.md "Indexes beside the store"). */
export interface QuerySources {
  index: AttributeIndex;
  /** Every entity with its expanded types (the id/type index, complete from the start). */
  entityTypes: { entries(tenant: string): Iterable<[string, string[]]> };
  geo: GeoIndex;
  views: EntityViewCache;
}

/** How many "maybe" candidates are read from the store at once. */
const CHECK_BATCH = 256;

/**
 * Answers an entity query from the derived indexes (docs/design.md "Indexes beside the store"): walks the
 * smallest candidate set, lets the attribute index decide what it can, reads from the store only the
 * candidates the index cannot decide (checking them with the exact evaluator) and the entities of the
 * requested page. Without `count`, stops as soon as the page (and whether more follow) is known.
 */
export async function queryEntities(
  src: QuerySources,
  tenant: string,
  query: EntityQuery,
  ctx: CompiledContext,
): Promise<QueryPage> {
  const p = await queryPageIds(src, tenant, query, ctx);
  return { entities: await pageEntities(src, tenant, ctx, p), total: p.total, hasMore: p.hasMore };
}

/**
 * {@link queryEntities} up to the page's ids: the entities of the page are not read unless the query
 * had to read them anyway (a caller holding their rendered texts needs no more).
 */
export async function queryPageIds(
  src: QuerySources,
  tenant: string,
  query: EntityQuery,
  ctx: CompiledContext,
): Promise<QueryPageIds> {
  const end = query.offset + query.limit;
  const only = typeOnly(query);
  // a list by type needs only the id/type index: it answers while the attribute index still fills
  if (only !== undefined && !src.index.isFilled()) {
    const members = [...src.entityTypes.entries(tenant)]
      .filter(([, ts]) => ts.includes(only))
      .map(([id]) => id);
    return page(members, query, members.length, new Map());
  }
  await src.index.ready();
  const t = src.index.tenant(tenant);
  if (only !== undefined) {
    const members = t.types.get(only);
    return page(members ? [...take(members, end)] : [], query, members?.size ?? 0, new Map());
  }
  const need = query.count ? Infinity : end + 1;
  const matched: string[] = [];
  const read = new Map<string, Entity>();
  const geoIds = query.geo ? new Set(src.geo.matches(tenant, query.geo)) : undefined;
  const it = candidates(t, query, geoIds)[Symbol.iterator]();
  let exhausted = false;
  let awaited = false;
  while (!exhausted && matched.length < need) {
    const batch: [string, Tri][] = [];
    let maybes = 0;
    for (;;) {
      const n = it.next();
      if (n.done) {
        exhausted = true;
        break;
      }
      const r = indexedMatch(query, t, n.value, geoIds);
      if (r === FALSE) continue;
      batch.push([n.value, r]);
      if (r === MAYBE) maybes++;
      if (matched.length + batch.length >= need || maybes >= CHECK_BATCH) break;
    }
    if (maybes === 0) {
      for (const [id] of batch) matched.push(id);
      continue;
    }
    awaited = true;
    const ids = batch.filter(([, r]) => r === MAYBE).map(([id]) => id);
    const ok = new Map<string, Entity>();
    for (const e of await src.views.read(tenant, ids, ctx)) if (matchesFilter(query, e, ctx)) ok.set(e.id, e);
    for (const [id, r] of batch) {
      if (r === MAYBE && !ok.has(id)) continue;
      // keep only the page's entities in memory: a count over many matches holds ids, not entities
      const e = ok.get(id);
      if (e && matched.length >= query.offset && matched.length < end) read.set(id, e);
      matched.push(id);
    }
  }
  const unique = awaited ? [...new Set(matched)] : matched;
  return page(unique, query, unique.length, read);
}

function page(matched: string[], query: EntityQuery, total: number, read: Map<string, Entity>): QueryPageIds {
  return {
    ids: matched.slice(query.offset, query.offset + query.limit),
    read,
    total: query.count ? total : undefined,
    hasMore: total > query.offset + query.limit,
  };
}

/** The entities of a page, in its order (those deleted meanwhile are left out). */
export async function pageEntities(
  src: QuerySources,
  tenant: string,
  ctx: CompiledContext,
  p: QueryPageIds,
): Promise<Entity[]> {
  const missing = p.ids.filter((id) => !p.read.has(id));
  for (const e of await src.views.read(tenant, missing, ctx)) p.read.set(e.id, e);
  return p.ids.map((id) => p.read.get(id)).filter((e): e is Entity => !!e);
}

/** The one expanded type of a query that selects by a single type and nothing else. */
function typeOnly(q: EntityQuery): string | undefined {
  const s = q.selectors;
  if (!s || s.length !== 1 || s[0].ids || s[0].idPattern || s[0].types?.kind !== "leaf") return undefined;
  if (q.attrs || q.q || q.scopeQ || q.geo) return undefined;
  return s[0].types.leaf;
}

function* take(ids: Iterable<string>, n: number): Generator<string> {
  if (n <= 0) return;
  let k = 0;
  for (const id of ids) {
    yield id;
    if (++k >= n) return;
  }
}

/** Compiles an idPattern (§4.9: a regular expression) in linear time (user-pattern.ts); 400 if refused. */
export function compileIdPattern(p: string): UserPattern {
  return compileUserPattern(p, "idPattern");
}

/** Refuses query features this build does not implement yet, honestly (422 OperationNotSupported). */
export function refuseUnsupported(name: string): never {
  throw new AppError("OperationNotSupported", `Query parameter ${name} is not supported by this broker yet`, {
    parameter: name,
  });
}
