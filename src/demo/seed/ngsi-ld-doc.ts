/**
 * Builders of normalized NGSI-LD attributes and entity documents for the traffic domain
 * (ETSI GS CIM 009 v1.8 §4.5). Every document carries TRAFFIC_ENTITY_CONTEXT, so the broker expands
 * its terms with contexts/traffic.jsonld and then the NGSI-LD core context.
 */

import { TRAFFIC_ENTITY_CONTEXT } from "../../domain/vocabulary";

/** A normalized NGSI-LD entity document, ready for POST /entities or /entityOperations/upsert. */
export interface NgsiLdEntityDoc {
  id: string;
  type: string;
  "@context": string[];
  [attribute: string]: unknown;
}

/** GeoJSON geometries used by the domain. */
export type Point = { type: "Point"; coordinates: [number, number] };
export type MultiPolygon = { type: "MultiPolygon"; coordinates: number[][][][] };

/** Extra members of an attribute instance (observedAt, unitCode, ...). */
export type AttrMeta = { observedAt?: string; unitCode?: string };

/** A Property attribute. */
export function property(value: unknown, meta: AttrMeta = {}): Record<string, unknown> {
  return { type: "Property", value, ...meta };
}

/** A GeoProperty attribute. */
export function geoProperty(value: Point | MultiPolygon, meta: AttrMeta = {}): Record<string, unknown> {
  return { type: "GeoProperty", value, ...meta };
}

/** A Relationship attribute (one object, or several as an array of URIs). */
export function relationship(object: string | string[], meta: AttrMeta = {}): Record<string, unknown> {
  return { type: "Relationship", object, ...meta };
}

/** An NGSI-LD DateTime value `{"@type": "DateTime", "@value": ISO 8601 UTC}`. */
export function dateTime(t: Date | string): { "@type": "DateTime"; "@value": string } {
  const d = typeof t === "string" ? new Date(t) : t;
  return { "@type": "DateTime", "@value": d.toISOString() };
}

/** A GeoJSON Point from longitude and latitude. */
export function point(lon: number, lat: number): Point {
  return { type: "Point", coordinates: [lon, lat] };
}

/** A new entity document with the traffic @context (members in insertion order, @context last). */
export function entity(id: string, type: string, attrs: Record<string, unknown>): NgsiLdEntityDoc {
  const attributes: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) attributes[k] = v;
  return { id, type, ...attributes, "@context": [...TRAFFIC_ENTITY_CONTEXT] };
}
