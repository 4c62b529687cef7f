import { request } from "./http";

/** The traffic JSON-LD context: NGSI-LD answers use its short names (`status`, `severity`, ...). */
const TRAFFIC_LINK =
  '<https://w3id.org/citygraph/contexts/traffic.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"';
/** Largest page asked of the NGSI-LD face (its MAX_LIMIT default). */
const PAGE = 1000;

/** A GeoJSON geometry as NGSI-LD keyValues render a GeoProperty. */
export interface Geometry {
  type: string;
  coordinates: unknown;
}

/** A DateTime property in keyValues form, or a plain string. */
export type DateTimeValue = string | { "@value": string } | undefined;

/** The string of a DateTime value. */
export function dateTime(v: DateTimeValue): string | undefined {
  return typeof v === "object" ? v["@value"] : v;
}

/**
 * Every entity matching `params` (`type`, `q`, `attrs`, ...) in keyValues form with the traffic context,
 * page after page (`GET /ngsi-ld/v1/entities`, ETSI GS CIM 009 §5.7.2).
 */
export async function queryAll<T>(params: Record<string, string>, signal?: AbortSignal): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const qs = new URLSearchParams({ ...params, options: "keyValues", limit: String(PAGE) });
    if (offset > 0) qs.set("offset", String(offset));
    const res = await request(`/ngsi-ld/v1/entities?${qs}`, {
      accept: "application/json",
      headers: { Link: TRAFFIC_LINK },
      signal,
    });
    const page = (await res.json()) as T[];
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

/** One entity of a type in keyValues form, or undefined when it does not exist. */
export async function getEntity<T>(type: string, id: string, attrs?: string): Promise<T | undefined> {
  // a query by id answers [] for a missing entity, where a retrieval would answer 404 (a console error)
  const found = await queryAll<T>({ type, id, ...(attrs ? { attrs } : {}) });
  return found[0];
}
