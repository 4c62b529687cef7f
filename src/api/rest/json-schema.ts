/**
 * Small builders of the JSON Schemas the REST faces publish (valid in draft-07 and 2020-12). Each
 * builder's result also carries, for the compiler only, the type of the values the schema accepts:
 * `Static<typeof S>` is what a handler gets once S has validated its input.
 */

/** A JSON Schema (the subset the REST faces use; valid in draft-07 and 2020-12 / OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

declare const VALUE: unique symbol;

/** A JSON Schema accepting values of type T (T exists for the compiler only). */
export type Schema<T> = JsonSchema & { readonly [VALUE]?: T };

/** The type of the values a schema built here accepts (`unknown` for a plain {@link JsonSchema}). */
export type Static<S> = S extends { readonly [VALUE]?: infer T } ? T : unknown;

type Props = Record<string, Schema<unknown>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The object of `P`'s properties: those in `R` present, the others optional. */
type ObjectOf<P extends Props, R extends keyof P> = Flat<
  { [K in R]: Static<P[K]> } & { [K in Exclude<keyof P, R>]?: Static<P[K]> }
>;

export const str: Schema<string> = { type: "string" };
export const num: Schema<number> = { type: "number" };
export const int: Schema<number> = { type: "integer" };
export const bool: Schema<boolean> = { type: "boolean" };
export const time: Schema<string> = { type: "string", format: "date-time" };

/** A string of `min` to `max` characters (code points). */
export const text = (min: number, max: number): Schema<string> => ({
  type: "string",
  minLength: min,
  maxLength: max,
});

/** `s` or null. */
export const nullable = <T>(s: Schema<T>): Schema<T | null> => ({ ...s, type: [s.type as string, "null"] });

/** A string of one of `values`. */
export const oneOfStrings = <const V extends readonly string[]>(values: V): Schema<V[number]> => ({
  type: "string",
  enum: [...values],
});

/** A value of `a` or of `b`. */
export const either = <A, B>(a: Schema<A>, b: Schema<B>): Schema<A | B> => ({ anyOf: [a, b] });

/** An array of `items`. */
export const arr = <T>(items: Schema<T>, maxItems?: number): Schema<T[]> => ({
  type: "array",
  items,
  ...(maxItems === undefined ? {} : { maxItems }),
});

/** A closed object (no property beyond `properties`); every property required unless named in `optional`. */
export const closed = <P extends Props, O extends keyof P & string = never>(
  properties: P,
  optional: readonly O[] = [],
): Schema<ObjectOf<P, Exclude<keyof P, O>>> => ({
  type: "object",
  required: Object.keys(properties).filter((k) => !(optional as readonly string[]).includes(k)),
  properties,
  additionalProperties: false,
});

/** A request object: the properties it reads, those in `required` needed; others are ignored. */
export const input = <P extends Props, R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
): Schema<ObjectOf<P, R>> => ({
  type: "object",
  required: [...required],
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
