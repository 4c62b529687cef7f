import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { canonicalName } from "../model/canonical-names";
import type { EntityFilter } from "../query/query-filter";
import { infoMatches, type CompiledInfo, type CompiledRegistration } from "./registration-match";

/**
 * The query strings the broker sends a context source (ETSI GS CIM 009 v1.8 §4.3.6.3, §5.7): narrowed to
 * what the registration provides, names compacted with the request's @context so they read as the
 * forwarded `Link` header names them.
 */

/** A query value as written: `:` and `,` (in URIs and lists) stay as they are. */
const encode = (v: string) => encodeURIComponent(v).replace(/%3A/gi, ":").replace(/%2C/gi, ",");

/** A query string from parameters, in their order. */
const queryString = (params: [string, string][]) => params.map(([k, v]) => `${k}=${encode(v)}`).join("&");

/** The parameters of a raw query string, decoded, in their order. */
const paramsOf = (query: string): [string, string][] => [...new URLSearchParams(query).entries()];

/** The entity ids an info names (undefined when one of its EntityInfos names none, or it has none). */
function idsOf(infos: CompiledInfo[]): string[] | undefined {
  const ids: string[] = [];
  for (const info of infos) {
    for (const e of info.entities ?? [undefined]) {
      if (e?.id === undefined) return undefined;
      ids.push(e.id);
    }
  }
  return [...new Set(ids)];
}

/** The attribute names the infos provide, as IRIs (undefined when one of them provides every attribute). */
function namesOf(infos: CompiledInfo[]): string[] | undefined {
  const names: string[] = [];
  for (const info of infos) {
    if (!info.names) return undefined;
    names.push(...info.names);
  }
  return [...new Set(names)];
}

/**
 * An entity query as an exclusive registration's source is asked it (§4.3.6.3: the source provides only
 * the registered entities and attributes): without `id`, the registered ids; without `attrs`, the
 * registered attributes, else the ones asked for that the registration provides. `query` is the
 * client's query string.
 */
export function narrowedQuery(
  cr: CompiledRegistration,
  filter: EntityFilter,
  query: string,
  ctx: CompiledContext,
): string {
  const infos = cr.infos.filter((i) => infoMatches(i, filter));
  const params = paramsOf(query);
  const has = (k: string) => params.some(([p]) => p === k);
  const ids = idsOf(infos);
  if (ids && !has("id") && !has("idPattern")) params.push(["id", ids.join(",")]);
  const names = namesOf(infos);
  if (names) {
    const provided = new Set(names);
    const asked = filter.attrs?.iris;
    const kept = asked ? asked.filter((n) => provided.has(n)) : names;
    const attrs = kept.map((iri) => canonicalName(ctx, iri)).join(",");
    const i = params.findIndex(([p]) => p === "attrs");
    if (i >= 0) params[i] = ["attrs", attrs];
    else params.push(["attrs", attrs]);
  }
  return queryString(params);
}

/**
 * A POST /entityOperations/query body (§5.2.23 Query) as an exclusive registration's source is asked it,
 * narrowed as {@link narrowedQuery} narrows a query string: EntitySelectors without `id` or `idPattern`
 * get the registered ids, `attrs` keeps the asked attributes the registration provides (all of them
 * when none are asked).
 */
export function narrowedBatchQuery(
  cr: CompiledRegistration,
  filter: EntityFilter,
  body: Record<string, unknown>,
  ctx: CompiledContext,
): Record<string, unknown> {
  const infos = cr.infos.filter((i) => infoMatches(i, filter));
  const out = { ...body };
  const ids = idsOf(infos);
  if (ids && Array.isArray(body.entities)) {
    out.entities = (body.entities as Record<string, unknown>[]).flatMap((sel) =>
      sel.id !== undefined || sel.idPattern !== undefined ? [sel] : ids.map((id) => ({ ...sel, id })),
    );
  }
  const names = namesOf(infos);
  if (names) {
    const provided = new Set(names);
    const asked = filter.attrs?.iris;
    out.attrs = (asked ? asked.filter((n) => provided.has(n)) : names).map((iri) => canonicalName(ctx, iri));
  }
  return out;
}

/** The types the registration names for entity `id`, compacted with `ctx`. */
function typesFor(cr: CompiledRegistration, id: string, ctx: CompiledContext): string[] {
  const types = new Set<string>();
  for (const info of cr.infos) {
    for (const e of info.entities ?? []) {
      if (e.id !== undefined ? e.id !== id : e.idPattern !== undefined && !e.idPattern.test(id)) continue;
      for (const t of e.types) types.add(canonicalName(ctx, t));
    }
  }
  return [...types];
}

/**
 * A retrieval of entity `id` as an entity query (§5.7.1 answered through a registration naming queryEntity
 * but not retrieveEntity): the entity's id, the types the registration names for it, and the client's
 * parameters of the retrieval.
 */
export function retrievalAsQuery(
  cr: CompiledRegistration,
  id: string,
  query: string,
  ctx: CompiledContext,
): string {
  const types = typesFor(cr, id, ctx);
  const params: [string, string][] = [["id", id]];
  if (types.length) params.push(["type", types.join(",")]);
  for (const [k, v] of paramsOf(query)) if (k !== "id" && k !== "type") params.push([k, v]);
  return queryString(params);
}

/**
 * A retrieval of entity `id` as the body of a POST /entityOperations/query (§5.2.23 Query, for a
 * registration naming queryBatch alone): one EntitySelector with the id and the registered types, and
 * the retrieval's `attrs`.
 */
export function retrievalAsBatchQuery(
  cr: CompiledRegistration,
  id: string,
  query: string,
  ctx: CompiledContext,
): Record<string, unknown> {
  const types = typesFor(cr, id, ctx);
  const selector: Record<string, string> = { id };
  if (types.length) selector.type = types.join(",");
  const body: Record<string, unknown> = { type: "Query", entities: [selector] };
  const attrs = new URLSearchParams(query).get("attrs");
  if (attrs) body.attrs = attrs.split(",");
  return body;
}

/** The parameters of a retrieval that a POST /entityOperations/query takes in its query string. */
export const batchQueryParams = (query: string): string =>
  queryString(paramsOf(query).filter(([k]) => ["options", "format", "lang"].includes(k)));
