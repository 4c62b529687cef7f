/**
 * Normalized NGSI-LD entities and attribute instances as the codec reads and writes them
 * (ETSI GS CIM 009 v1.8 §4.5.1 entity, §4.5.2–§4.5.22 the eight attribute kinds, §5.2.4–5.2.37 data
 * types). Terms are compacted with one context; there is no `@context` member.
 */

/** JSON values (RFC 8259). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A normalized NGSI-LD entity (ETSI GS CIM 009 §4.5.1, §5.2.4). */
export interface NgsiEntity {
  id: string;
  type: string | string[];
  scope?: string | string[];
  createdAt?: string;
  modifiedAt?: string;
  [term: string]: unknown;
}

/** Members every attribute instance may carry (ETSI GS CIM 009 §4.5.2.2, §5.2.5). */
export interface AttributeInstanceBase {
  observedAt?: string;
  unitCode?: string;
  datasetId?: string;
  createdAt?: string;
  modifiedAt?: string;
  deletedAt?: string;
  instanceId?: string;
  /** Sub-attributes: any other member holding an instance or an array of instances. */
  [subAttribute: string]: unknown;
}

/** A Property value: literal, value object, structured JSON-LD value, or an array of these. */
export type PropertyValue = JsonValue;

/** Property (§4.5.2, §5.2.5). */
export interface PropertyInstance extends AttributeInstanceBase {
  type: "Property";
  value: PropertyValue;
}
/** Relationship (§4.5.3, §5.2.6): `object` is a URI or an array of URIs. */
export interface RelationshipInstance extends AttributeInstanceBase {
  type: "Relationship";
  object: string | string[];
}
/** GeoProperty (§4.5.2.3, §5.2.7): `value` is a GeoJSON geometry (IETF RFC 7946 §3.1). */
export interface GeoPropertyInstance extends AttributeInstanceBase {
  type: "GeoProperty";
  value: { type: string; coordinates?: JsonValue; geometries?: JsonValue };
}
/** LanguageProperty (§4.5.18, §5.2.32): language tag (or `@none`) to string(s). */
export interface LanguagePropertyInstance extends AttributeInstanceBase {
  type: "LanguageProperty";
  languageMap: Record<string, string | string[]>;
}
/** VocabProperty (§4.5.20, §5.2.35): terms expanded with the @vocab coercion of `vocab`. */
export interface VocabPropertyInstance extends AttributeInstanceBase {
  type: "VocabProperty";
  vocab: string | string[];
}
/** JsonProperty (§4.5.24, §5.2.38): any JSON, an rdf:JSON literal. */
export interface JsonPropertyInstance extends AttributeInstanceBase {
  type: "JsonProperty";
  json: JsonValue;
}
/** ListProperty (§4.5.21, §5.2.36): an ordered list (`@list`). */
export interface ListPropertyInstance extends AttributeInstanceBase {
  type: "ListProperty";
  valueList: JsonValue[];
}
/** ListRelationship (§4.5.22, §5.2.37): ordered `{object: URI}` items (or bare URIs). */
export interface ListRelationshipInstance extends AttributeInstanceBase {
  type: "ListRelationship";
  objectList: ({ object: string } | string)[];
}

/** Any of the eight attribute instance kinds. */
export type AttributeInstance =
  | PropertyInstance
  | RelationshipInstance
  | GeoPropertyInstance
  | LanguagePropertyInstance
  | VocabPropertyInstance
  | JsonPropertyInstance
  | ListPropertyInstance
  | ListRelationshipInstance;
