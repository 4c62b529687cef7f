import type { JsonSchema } from "./schema-route";

/** Small builders of the JSON Schemas the REST faces publish (valid in draft-07 and 2020-12). */

export const str: JsonSchema = { type: "string" };
export const num: JsonSchema = { type: "number" };
export const int: JsonSchema = { type: "integer" };
export const bool: JsonSchema = { type: "boolean" };
export const time: JsonSchema = { type: "string", format: "date-time" };

/** `s` or null. */
export const nullable = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, "null"] });

/** A string of one of `values`. */
export const oneOfStrings = (values: readonly string[]): JsonSchema => ({
  type: "string",
  enum: [...values],
});

/** An array of `items`. */
export const arr = (items: JsonSchema, maxItems?: number): JsonSchema => ({
  type: "array",
  items,
  ...(maxItems === undefined ? {} : { maxItems }),
});

/** A closed object (no property beyond `properties`); every property required unless named in `optional`. */
export const closed = (properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema => ({
  type: "object",
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
  additionalProperties: false,
});

/** A request object: the properties it reads, those in `required` needed; others are ignored. */
export const input = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  required,
  properties,
});

/** The `hours` query parameter of a forecast: 1 to `max` hours ahead, default 24 (docs/rest.md). */
export const hoursAhead = (max: number): JsonSchema => ({
  type: "integer",
  minimum: 1,
  maximum: max,
  default: 24,
  description: `Hours ahead (max ${max})`,
});
