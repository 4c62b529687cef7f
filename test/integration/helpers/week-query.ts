/**
 * The "every observation of one camera for a week" SPARQL query of docs/sparql.md: each raw instance of
 * one attribute in [from, to) as a row (time, value, unit, instance), read from the entity's instance
 * graph. The attribute is a constant of the pattern, so the answer carries no attribute column.
 */
export function instancesQuery(entityId: string, attr: string, from: string, to: string): string {
  return `PREFIX cgh: <https://w3id.org/citygraph/history#>
PREFIX ngsi-ld: <https://uri.etsi.org/ngsi-ld/>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
SELECT ?time ?value ?unit ?instance WHERE {
  GRAPH <urn:citygraph:instances:${entityId}> {
    ?instance cgh:attribute <${attr}> ; ngsi-ld:observedAt ?time ; ngsi-ld:hasValue ?value .
    OPTIONAL { ?instance ngsi-ld:unitCode ?unit }
  }
  FILTER(?time >= "${from}"^^xsd:dateTime && ?time < "${to}"^^xsd:dateTime)
} ORDER BY ?time`;
}

const SPEED = "https://w3id.org/citygraph/traffic#averageVehicleSpeed";
const INTENSITY = "https://w3id.org/citygraph/traffic#intensity";

/** The attributes {@link weekOfCamera} writes. */
export const WEEK_ATTRS = { speed: SPEED, intensity: INTENSITY };

/**
 * A temporal entity (ETSI GS CIM 009 v1.8 §5.6.11 body) holding `days` days of one flow camera's
 * observations every `stepMin` minutes from `start` (ms): speed (km/h) and intensity, deterministic.
 */
export function weekOfCamera(id: string, start: number, days = 7, stepMin = 5): Record<string, unknown> {
  const speed: object[] = [];
  const intensity: object[] = [];
  for (let t = start, k = 0; t < start + days * 86_400_000; t += stepMin * 60_000, k++) {
    const observedAt = new Date(t).toISOString();
    speed.push({ type: "Property", value: 20 + ((k * 7) % 31) + 0.5, observedAt, unitCode: "KMH" });
    intensity.push({ type: "Property", value: 100 + ((k * 13) % 97), observedAt });
  }
  return {
    id,
    type: "https://w3id.org/citygraph/traffic#TrafficFlowObserved",
    [SPEED]: speed,
    [INTENSITY]: intensity,
  };
}
