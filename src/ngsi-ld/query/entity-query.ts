import { AppError, badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/compiled-context";
import type { EntityRepository } from "../entities/entity-repository";
import type { Entity } from "../model/entity";

/** The selection part of an entity query (ETSI GS CIM 009 v1.8 §5.7.2, §6.4.3.2). */
export interface EntityQuery {
  /** Expanded type IRIs; an entity matches if it has any of them. */
  types?: string[];
  ids?: string[];
  idPattern?: RegExp;
  /** Canonical attribute names; an entity matches if it has at least one. */
  attrs?: string[];
  limit: number;
  offset: number;
}

/** One page of a query answer and the total count of matches. */
export interface QueryPage {
  entities: Entity[];
  total: number;
}

/**
 * Answers an entity query from the id/type index (DESIGN.md "Indexes beside the store") and reads only
 * the entities of the requested page from the store. `q`, geo-queries and type expressions beyond
 * comma lists belong to issue 3 and are refused by the route with OperationNotSupported.
 */
export async function queryEntities(
  repo: EntityRepository,
  tenant: string,
  query: EntityQuery,
  ctx: CompiledContext,
): Promise<QueryPage> {
  const types = query.types ? new Set(query.types) : undefined;
  const ids = query.ids ? new Set(query.ids) : undefined;
  const matches: string[] = [];
  const candidates: Iterable<[string, string[]]> = ids
    ? [...ids].flatMap((id): [string, string[]][] => {
        const t = repo.index.types(tenant, id);
        return t ? [[id, t]] : [];
      })
    : repo.index.entries(tenant);
  for (const [id, t] of candidates) {
    if (types && !t.some((x) => types.has(x))) continue;
    if (query.idPattern && !query.idPattern.test(id)) continue;
    matches.push(id);
  }
  if (query.attrs) {
    const wanted = query.attrs;
    const all = (await repo.readMany(tenant, matches, ctx)).filter((e): e is Entity => !!e);
    const hit = all.filter((e) => wanted.some((a) => a in e));
    return { entities: hit.slice(query.offset, query.offset + query.limit), total: hit.length };
  }
  const page = matches.slice(query.offset, query.offset + query.limit);
  const entities = (await repo.readMany(tenant, page, ctx)).filter((e): e is Entity => !!e);
  return { entities, total: matches.length };
}

/** Compiles an idPattern (§4.9: a regular expression); 400 if it does not compile. */
export function compileIdPattern(p: string): RegExp {
  try {
    return new RegExp(p);
  } catch (e) {
    throw badRequest(`idPattern is not a valid regular expression: ${(e as Error).message}`, {
      parameter: "idPattern",
    });
  }
}

/** Refuses query features this build does not implement yet, honestly (422 OperationNotSupported). */
export function refuseUnsupported(name: string): never {
  throw new AppError("OperationNotSupported", `Query parameter ${name} is not supported by this broker yet`, {
    parameter: name,
  });
}
