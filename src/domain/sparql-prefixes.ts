import { HISTORY_NS } from "../ngsi-ld/temporal/segment-graph";

/**
 * The SPARQL prefixes of the traffic graph (interface spec §4.10; README "SPARQL for data scientists"):
 * the ontology, WGS84 lat/long, GeoSPARQL and its functions, units, XSD, and the history segments (`cgh:`).
 */
export const TRAFFIC_SPARQL_PREFIXES = `PREFIX traffic: <https://w3id.org/citygraph/traffic#>
PREFIX cgh: <${HISTORY_NS}>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
PREFIX geo: <http://www.w3.org/2003/01/geo/wgs84_pos#>
PREFIX geof: <http://www.opengis.net/def/function/geosparql/>
PREFIX geosparql: <http://www.opengis.net/ont/geosparql#>
PREFIX uom: <http://www.opengis.net/def/uom/OGC/1.0/>
`;
