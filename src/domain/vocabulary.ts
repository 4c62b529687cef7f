import { HISTORY_NS } from "../ngsi-ld/temporal/segment-graph";
import { CORE_CONTEXT_URL } from "../rdf/contexts/core";

/**
 * The traffic vocabulary every face shares: the JSON-LD context, the ontology namespace, the shortcut
 * predicates of the plain view and the SPARQL prefixes (docs/design.md "The domain vocabulary is ours").
 */

/**
 * The SPARQL prefixes of the traffic graph (docs/sparql.md): the ontology, the NGSI-LD core terms, WGS84
 * lat/long, GeoSPARQL and its functions, units, XSD, and the history segments (`cgh:`). The dashboard's
 * SPARQL console offers them first in its prefix completion.
 */
export const TRAFFIC_SPARQL_PREFIXES: Readonly<Record<string, string>> = {
  traffic: "https://w3id.org/citygraph/traffic#",
  "ngsi-ld": "https://uri.etsi.org/ngsi-ld/",
  cgh: HISTORY_NS,
  xsd: "http://www.w3.org/2001/XMLSchema#",
  geo: "http://www.w3.org/2003/01/geo/wgs84_pos#",
  geof: "http://www.opengis.net/def/function/geosparql/",
  geosparql: "http://www.opengis.net/ont/geosparql#",
  uom: "http://www.opengis.net/def/uom/OGC/1.0/",
};

/** {@link TRAFFIC_SPARQL_PREFIXES} as a query's prologue of PREFIX declarations. */
export const TRAFFIC_SPARQL_PROLOGUE = Object.entries(TRAFFIC_SPARQL_PREFIXES)
  .map(([prefix, iri]) => `PREFIX ${prefix}: <${iri}>\n`)
  .join("");

/** URL of the traffic JSON-LD context (served from contexts/traffic.jsonld, see contexts/index.json). */
export const TRAFFIC_CONTEXT_URL = "https://w3id.org/citygraph/contexts/traffic.jsonld";
/** The `@context` of every entity document the seed and the feed produce. */
export const TRAFFIC_ENTITY_CONTEXT: readonly string[] = [TRAFFIC_CONTEXT_URL, CORE_CONTEXT_URL];
/** The ontology namespace the traffic context maps its terms to. */
export const TRAFFIC_NS = "https://w3id.org/citygraph/traffic#";
/**
 * Shortcut predicates the traffic ontology uses for NGSI-LD core terms it cannot redefine (the core
 * context protects `status` and `location`): the plain value triple of `ngsi-ld:status` is
 * `traffic:status`, and `ngsi-ld:location` also gets `traffic:location` with its WKT literal
 * (docs/sparql.md; ontology/traffic.ttl; docs/design.md "Values are also plain triples").
 */
export const TRAFFIC_SHORTCUT_ALIASES: Readonly<Record<string, string>> = {
  "https://uri.etsi.org/ngsi-ld/status": `${TRAFFIC_NS}status`,
  "https://uri.etsi.org/ngsi-ld/location": `${TRAFFIC_NS}location`,
};
