import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { EntityFilter } from "../query/query-filter";
import type { Distributor, Forwarding, SourceFailure, WriteRequest } from "./distributor";
import { batchQueryParams, retrievalAsBatchQuery, retrievalAsQuery } from "./forwarded-query";
import type { SourceAnswer } from "./merge-entities";
import type { CompiledRegistration } from "./registration-match";

/** The registrations asked for one entity, by the operation each is asked with. */
export interface RetrievalSources {
  /** Registrations naming retrieveEntity: GET /entities/{id}. */
  retrieve: CompiledRegistration[];
  /** Registrations naming queryEntity but not retrieveEntity: GET /entities?id=... */
  query: CompiledRegistration[];
  /** Registrations naming queryBatch alone: POST /entityOperations/query. */
  batch: CompiledRegistration[];
}

/** The registrations relevant to a retrieval (`filter`: the entity's id and types), each once. */
export function retrievalSources(dist: Distributor, tenant: string, filter: EntityFilter): RetrievalSources {
  const retrieve = dist.matching(tenant, filter, "retrieveEntity");
  const query = dist.matching(tenant, filter, "queryEntity").filter((cr) => !retrieve.includes(cr));
  const batch = dist
    .matching(tenant, filter, "queryBatch")
    .filter((cr) => !retrieve.includes(cr) && !query.includes(cr));
  return { retrieve, query, batch };
}

/** An entity id (a URI) as a path segment: kept as written but for the characters that end a segment. */
const idInPath = (id: string) => id.replace(/[/?#%\s]/g, (c) => encodeURIComponent(c));

/**
 * Asks the sources for entity `id` (ETSI GS CIM 009 v1.8 §5.7.1 distributed): each with the operation its
 * registration supports, a retrieval, an entity query or a batch query; `query` is the client's query
 * string. Only entity `id` of an answer counts: a source answering a query may show others.
 */
export async function retrieveRemote(
  dist: Distributor,
  sources: RetrievalSources,
  id: string,
  query: string,
  fwd: Forwarding,
  ctx: CompiledContext,
): Promise<{ answers: SourceAnswer[]; failures: SourceFailure[] }> {
  const asQuery = (cr: CompiledRegistration): WriteRequest => ({
    method: "GET",
    path: "/entities",
    query: retrievalAsQuery(cr, id, query, ctx),
  });
  const asBatch = (cr: CompiledRegistration): WriteRequest => ({
    method: "POST",
    path: "/entityOperations/query",
    query: batchQueryParams(query),
    body: JSON.stringify(retrievalAsBatchQuery(cr, id, query, ctx)),
    contentType: "application/json",
  });
  const rs = await Promise.all([
    dist.read(sources.retrieve, { method: "GET", path: `/entities/${idInPath(id)}`, query }, fwd, ctx),
    dist.read(sources.query, asQuery, fwd, ctx),
    dist.read(sources.batch, asBatch, fwd, ctx),
  ]);
  return {
    answers: rs
      .flatMap((r) => r.answers)
      .map((a) => ({ ...a, entities: a.entities.filter((e) => e.id === id) })),
    failures: rs.flatMap((r) => r.failures),
  };
}
