/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = { [k: string]: unknown };

/** Schema helpers that keep route and component schemas short. */
export const js = {
  str: (extra: JsonSchema = {}): JsonSchema => ({ type: "string", ...extra }),
  int: (extra: JsonSchema = {}): JsonSchema => ({ type: "integer", ...extra }),
  num: (extra: JsonSchema = {}): JsonSchema => ({ type: "number", ...extra }),
  bool: (): JsonSchema => ({ type: "boolean" }),
  dateTime: (extra: JsonSchema = {}): JsonSchema => ({ type: "string", format: "date-time", ...extra }),
  enumOf: (values: readonly string[], extra: JsonSchema = {}): JsonSchema => ({
    type: "string",
    enum: [...values],
    ...extra,
  }),
  nullable: (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: "null" }] }),
  array: (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: "array", items, ...extra }),
  /** A closed object whose listed properties are all required unless named in `optional`. */
  object: (properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema => ({
    type: "object",
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  }),
  /** A reference to a named component schema of the OpenAPI document. */
  ref: (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` }),
};
