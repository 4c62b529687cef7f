/** The README's example queries ("SPARQL for data scientists"), offered by the SPARQL console. */
export const SPARQL_EXAMPLES: { label: string; query: string }[] = [
  {
    label: "Active cameras and where they are",
    query: `PREFIX traffic: <https://w3id.org/citygraph/traffic#>
PREFIX geo: <http://www.w3.org/2003/01/geo/wgs84_pos#>
SELECT ?cam ?name ?lat ?long WHERE {
  ?cam a traffic:TrafficCamera ; traffic:status "active" ; traffic:name ?name ; geo:lat ?lat ; geo:long ?long }`,
  },
  {
    label: "Serious accidents of the last day",
    query: `PREFIX traffic: <https://w3id.org/citygraph/traffic#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
SELECT ?acc ?ts ?severity ?district WHERE {
  ?acc a traffic:TrafficAccident ; traffic:timestamp ?ts ; traffic:severity ?severity ; traffic:refDistrict ?district .
  FILTER(?ts >= "__SINCE__"^^xsd:dateTime && ?severity IN ("severe", "critical")) } ORDER BY DESC(?ts)`,
  },
  {
    label: "Cameras within 1 km of Ben Thanh market",
    query: `PREFIX traffic: <https://w3id.org/citygraph/traffic#>
PREFIX geosparql: <http://www.opengis.net/ont/geosparql#>
PREFIX geof: <http://www.opengis.net/def/function/geosparql/>
PREFIX uom: <http://www.opengis.net/def/uom/OGC/1.0/>
SELECT ?cam ?metres WHERE {
  ?cam a traffic:TrafficCamera ; geosparql:asWKT ?wkt .
  BIND(geof:distance(?wkt, "POINT(106.7009 10.7769)"^^geosparql:wktLiteral, uom:metre) AS ?metres)
  FILTER(?metres < 1000) } ORDER BY ?metres`,
  },
  {
    label: "Hourly average speed seen by one camera",
    query: `PREFIX traffic: <https://w3id.org/citygraph/traffic#>
PREFIX cgh: <https://w3id.org/citygraph/history#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
SELECT ?start ?speed ?n WHERE {
  GRAPH ?seg { ?seg cgh:entity <urn:ngsi-ld:TrafficFlowObserved:12> ;
                    cgh:start ?start ; cgh:count ?n ; traffic:averageVehicleSpeed ?speed }
  FILTER(?start >= "__SINCE__"^^xsd:dateTime) } ORDER BY ?start`,
  },
];

/** An example with its "since" placeholder set to 24 hours before `now`. */
export function exampleQuery(query: string, now = Date.now()): string {
  return query.replace(/__SINCE__/g, new Date(now - 86_400_000).toISOString().replace(/\.\d+Z$/, "Z"));
}
