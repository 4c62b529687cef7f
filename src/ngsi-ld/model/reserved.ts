import { badRequest } from "../../errors";
import { HISTORY_GRAPH_PREFIX, INTERNAL_GRAPH_PREFIX } from "../../store/graph-store";

/** The broker's own namespaces (subscriptions, registries, history segments): never data of a client. */
const RESERVED_PREFIXES = [INTERNAL_GRAPH_PREFIX, HISTORY_GRAPH_PREFIX];
const LONGEST = Math.max(...RESERVED_PREFIXES.map((p) => p.length));

/** True if `iri` lies in one of the broker's own namespaces (URN scheme and NID compared case-insensitively). */
export function isReservedIri(iri: string): boolean {
  if (iri.length < 4 || (iri.charCodeAt(0) | 0x20) !== 0x75) return false; // fast path: not "u..."
  const head = iri.slice(0, LONGEST).toLowerCase();
  return RESERVED_PREFIXES.some((p) => head.startsWith(p));
}

/** Throws 400 BadRequestData if `iri` (an entity id, type or attribute name, expanded) is reserved. */
export function refuseReserved(iri: string, what: string): void {
  if (isReservedIri(iri)) {
    throw badRequest(`${what} ${JSON.stringify(iri)} lies in a namespace reserved by the broker`, {
      value: iri,
    });
  }
}

/** Members of an entity that are never attributes: an attribute operation naming one is a 400 (§4.5.1). */
export const NOT_ATTRIBUTES = new Set(["id", "@id", "type", "@type", "@context"]);
