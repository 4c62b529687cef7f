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

/**
 * `value` without the blank text (empty, or spaces only) of the optional properties that `schema`
 * declares, at any depth of nested objects: what a form sends for a field left empty is that field
 * absent (docs/rest.md "Blank optional fields"). A required property keeps its blank value, for the
 * schema to refuse it by name. `value` itself is not changed; a copy is made where something is dropped.
 */
export function withoutBlankOptionals(schema: JsonSchema | undefined, value: unknown): unknown {
  const s = objectSchemaOf(schema);
  if (!s || !isObject(value)) return value;
  const props = s.properties as Record<string, JsonSchema>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  let out: Json | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (!(k in props)) continue;
    const next = isBlank(v) && !required.has(k) ? undefined : withoutBlankOptionals(props[k], v);
    if (next === v) continue;
    out ??= { ...value };
    if (next === undefined) delete out[k];
    else out[k] = next;
  }
  return out ?? value;
}
