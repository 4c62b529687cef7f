import type { JsonSchema } from "./json-schema";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isBlank = (v: unknown): boolean => typeof v === "string" && v.trim() === "";

/** The object schema that `schema` offers for an object value: itself, or its first object alternative. */
function objectSchemaOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  if (isObject(schema.properties)) return schema;
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return alternatives?.find((a) => isObject(a.properties));
}

/** True when `schema` takes text: a string, or an alternative that is one. */
function takesText(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  const type = schema.type;
  if (type === "string" || (Array.isArray(type) && type.includes("string"))) return true;
  return ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.some(takesText) ?? false;
}

/**
 * `value` without the blank text (empty, or spaces only) of the optional properties that `schema`
 * declares as text, at any depth of nested objects: what a form sends for a field left empty is that
 * field absent (docs/rest.md "Blank optional fields"). A required property, or one that takes no text (a
 * list of images), keeps its blank value, for the schema to refuse it by name. `value` itself is not changed; a copy is made where something is dropped.
 */
export function withoutBlankOptionals(schema: JsonSchema | undefined, value: unknown): unknown {
  const s = objectSchemaOf(schema);
  if (!s || !isObject(value)) return value;
  const props = s.properties as Record<string, JsonSchema>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  let out: Json | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (!(k in props)) continue;
    const absent = isBlank(v) && !required.has(k) && takesText(props[k]);
    const next = absent ? undefined : withoutBlankOptionals(props[k], v);
    if (next === v) continue;
    out ??= { ...value };
    if (next === undefined) delete out[k];
    else out[k] = next;
  }
  return out ?? value;
}
