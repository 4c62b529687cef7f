/**
 * The eight NGSI-LD attribute kinds and the member that carries each one's value
 * (ETSI GS CIM 009 v1.8 §4.5.2 to §4.5.22, Table 4.5.1-1).
 */
export const ATTRIBUTE_VALUE_MEMBER = {
  Property: "value",
  Relationship: "object",
  GeoProperty: "value",
  LanguageProperty: "languageMap",
  VocabProperty: "vocab",
  JsonProperty: "json",
  ListProperty: "valueList",
  ListRelationship: "objectList",
} as const;

/** One attribute kind. */
export type AttributeKind = keyof typeof ATTRIBUTE_VALUE_MEMBER;

/** True if `t` names one of the eight attribute kinds. */
export function isAttributeKind(t: unknown): t is AttributeKind {
  return typeof t === "string" && Object.prototype.hasOwnProperty.call(ATTRIBUTE_VALUE_MEMBER, t);
}

/** The member holding the value of an instance of kind `type` (`value` for an unknown kind). */
export function valueMemberOf(type: unknown): string {
  return isAttributeKind(type) ? ATTRIBUTE_VALUE_MEMBER[type] : "value";
}

/**
 * The NGSI-LD null in the value member of a deleted instance (ETSI GS CIM 009 v1.8 §4.5.0):
 * `urn:ngsi-ld:null`, as `{"@none": "urn:ngsi-ld:null"}` in a languageMap.
 */
export function deletedValueOf(member: string): unknown {
  return member === "languageMap" ? { "@none": "urn:ngsi-ld:null" } : "urn:ngsi-ld:null";
}

/**
 * Members of an attribute instance that are not sub-attributes (§4.5.2.2 and §4.5.3.2):
 * the value members of every kind, the system and meta members.
 */
export const ATTRIBUTE_META_MEMBERS: ReadonlySet<string> = new Set([
  "type",
  "value",
  "object",
  "languageMap",
  "vocab",
  "json",
  "valueList",
  "objectList",
  "observedAt",
  "unitCode",
  "datasetId",
  "createdAt",
  "modifiedAt",
  "deletedAt",
  "instanceId",
  "lang",
  "objectType",
  "previousValue",
  "previousObject",
  "previousLanguageMap",
  "previousVocab",
  "previousJson",
  "previousValueList",
  "previousObjectList",
  "expiresAt",
]);

/** Members of an entity that are not attributes (§4.5.1). */
export const ENTITY_META_MEMBERS: ReadonlySet<string> = new Set([
  "id",
  "@id",
  "type",
  "@type",
  "@context",
  "scope",
  "createdAt",
  "modifiedAt",
  "deletedAt",
]);
