/** Members of a normalized entity that are not attributes (ETSI GS CIM 009 §4.5.1, §5.2.4). */
export const ENTITY_META_KEYS: ReadonlySet<string> = new Set([
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
