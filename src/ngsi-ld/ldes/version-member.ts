import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { entityToTriples } from "../codec";
import { isoTime, rowToInstance } from "../temporal/instance-codec";
import type { TemporalIndex } from "../temporal/temporal-index";
import type { EntityVersion } from "./entity-versions";
import { versionLines } from "./ldes-documents";

/** The member IRI of a version: the entity id with its modifiedAt as fragment. */
export const memberIri = (v: EntityVersion): string => `${v.entityId}#${isoTime(v.at)}`;

/** A version read out of the history: the entity whose id is the member IRI, detached from the index. */
export interface VersionEntity {
  iri: string;
  entityId: string;
  at: number;
  entity: Record<string, unknown>;
}

// A blank node as subject (line start) or object (before the final " ."): never inside a literal.
const BLANK_SUBJECT = /^_:b(\d+) /gm;
const BLANK_OBJECT = / _:b(\d+) \.$/gm;

/**
 * A version as an NGSI-LD entity (ETSI GR CIM 056 version objects) whose id is the member IRI and whose
 * attributes are the instances the version's write made (with their observedAt, createdAt, modifiedAt,
 * instanceId and metadata). Types are left out: they are the entity's current ones, which a later write may
 * change, and a closed page must not. Read at once: the history's rows move as writes arrive.
 */
export function versionEntity(index: TemporalIndex, v: EntityVersion, ctx: CompiledContext): VersionEntity {
  const iri = memberIri(v);
  const entity: Record<string, unknown> = { id: iri, type: [] };
  for (const a of v.attrs) {
    const instances = a.rows.map((i) => rowToInstance(index, a.series, i, ctx, true));
    entity[ctx.compactIri(a.attr)] = instances.length === 1 ? instances[0] : instances;
  }
  return { iri, entityId: v.entityId, at: v.at, entity };
}

/**
 * A version as an LDES member: the normative NGSI-LD RDF of its entity, its `ngsi-ld:modifiedAt` (an
 * xsd:dateTime, the timestamp TREE relations compare) and `dcterms:isVersionOf` the entity. Blank nodes are
 * labelled `m<n>b<k>` so that members in one page never share one.
 */
export function memberTriples(v: VersionEntity, ctx: CompiledContext, n: number): string {
  const triples = entityToTriples(v.entity as never, ctx, { shortcuts: false, compactTimes: false })
    .replace(BLANK_SUBJECT, `_:m${n}b$1 `)
    .replace(BLANK_OBJECT, ` _:m${n}b$1 .`);
  return triples + versionLines(v.iri, v.entityId, v.at);
}
