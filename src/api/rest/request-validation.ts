import Ajv, { type ErrorObject } from "ajv";
import { AppError } from "../../errors";
import { withoutBlankOptionals } from "./blank-optionals";
import type { JsonSchema, Schema } from "./json-schema";

/** Where an input came from, for the messages: the query string, a JSON body or a form's fields. */
export type InputPart = "query" | "body" | "form";

/**
 * The Ajv instance of request validation; it knows `date-time` and `uri`. With `coerce`, text becomes
 * the number or boolean its schema asks for (query strings and form fields are text); a JSON body is
 * checked as it is, so `"42"` is no number there and `42` no string. Defaults of the schema are filled in.
 */
export function requestAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce,
    allErrors: false,
    strict: false,
    useDefaults: true,
    verbose: true,
  });
  ajv.addFormat("date-time", {
    type: "string",
    validate: (s: string) =>
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) &&
      !Number.isNaN(Date.parse(s)),
  });
  ajv.addFormat("uri", { type: "string", validate: (s: string) => URL.canParse(s) });
  return ajv;
}

/**
 * The check of one input against `schema`: the input, now of the schema's type, or the 400 of its first
 * fault. `part` names where the input came from in the messages. Blank optional text counts as absent
 * (blank-optionals.ts).
 */
export function checker<T>(ajv: Ajv, schema: Schema<T>, part: InputPart): (data: unknown) => T {
  const plain: JsonSchema = schema;
  const valid = ajv.compile<T>(plain);
  return (input) => {
    const data = withoutBlankOptionals(plain, input);
    if (valid(data)) return data;
    throw validationError(valid.errors ?? [], part);
  };
}

/** "/location/lat" -> "location.lat", "/images/2" -> "images[2]". */
function dotted(instancePath: string, last?: string): string {
  const segs = instancePath.split("/").slice(1);
  if (last !== undefined) segs.push(last);
  return segs
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : out ? `${out}.${s}` : s), "");
}

/** A refused value as the error shows it: long text cut, a large array or object only named. */
function shown(v: unknown): unknown {
  if (typeof v === "string") return v.length > 200 ? v.slice(0, 200) + "..." : v;
  if (typeof v !== "object" || v === null) return v ?? null;
  const json = JSON.stringify(v);
  if (json.length <= 500) return v;
  return Array.isArray(v) ? `(an array of ${v.length} items)` : "(an object)";
}

/**
 * What a failed schema check says to the client (§7): a missing property is INVALID_REQUEST, any other
 * fault INVALID_PARAMETER with `details.parameter` (a dotted path for nested values), `value` and
 * `expected` (read in `raw`, the input as it came, when given). A schema may give its own message per failing keyword in `x-messages`
 * (`{"maximum": "..."}`), for a rule whose plain wording says too little (a point outside the city).
 */
export function validationError(
  errors: ErrorObject[],
  part: InputPart,
  raw?: Record<string, unknown>,
): AppError {
  const e = faultOf(errors);
  if (!e) return new AppError("BadRequestData", `Invalid ${part}`);
  if (e.keyword === "required") {
    const p = dotted(e.instancePath, (e.params as { missingProperty: string }).missingProperty);
    return new AppError("InvalidRequest", `Missing required ${part} parameter: ${p}`, { parameter: p });
  }
  const schema = (e.parentSchema ?? {}) as JsonSchema;
  const extra =
    e.keyword === "additionalProperties"
      ? (e.params as { additionalProperty: string }).additionalProperty
      : undefined;
  // a query parameter is named whole (`metrics`, not `metrics[1]`)
  const path = dotted(e.instancePath, extra);
  const parameter = (part === "query" ? path.split(/[.[]/)[0] : path) || part;
  // the value as it came (a query value before it was read as a number, say)
  const value = raw
    ? raw[parameter]
    : extra === undefined
      ? e.data
      : (e.data as Record<string, unknown>)[extra];
  const own = (schema["x-messages"] as Record<string, string> | undefined)?.[e.keyword];
  const why = e.keyword === "anyOf" ? `expected ${String(describe(schema))}` : (e.message ?? "not allowed");
  return new AppError("BadRequestData", own ?? `Invalid value of ${parameter}: ${why}`, {
    parameter,
    value: shown(value),
    expected: extra === undefined ? describe(schema) : "no such property",
  });
}

/**
 * The fault to report. For a value matching none of several shapes (`reporter`: a name, or an object),
 * the fault within the shape the value has: a field of an object (`reporter.name` too long), or a rule of
 * the text (too long), not that it is of neither shape; that only when nothing closer is known.
 */
function faultOf(errors: ErrorObject[]): ErrorObject | undefined {
  const alt = errors.find((x) => x.keyword === "anyOf" || x.keyword === "oneOf");
  if (!alt) return errors[0];
  const within = (x: ErrorObject) =>
    x.instancePath.startsWith(`${alt.instancePath}/`) ||
    (x.instancePath === alt.instancePath && x !== alt && x.keyword !== "type" && x.keyword !== alt.keyword);
  return errors.find(within) ?? alt;
}

/** A short human description of what a schema accepts. */
export function describe(s: JsonSchema | undefined): unknown {
  if (!s) return "a valid value";
  if (Array.isArray(s.enum)) return s.enum;
  if (s.format === "date-time") return "an ISO 8601 date-time, e.g. 2025-12-07T00:00:00Z";
  if (s.type === "integer" || s.type === "number") {
    const lo = s.minimum;
    const hi = s.maximum;
    const kind = s.type === "integer" ? "an integer" : "a number";
    if (lo !== undefined && hi !== undefined) return `${kind} from ${String(lo)} to ${String(hi)}`;
    if (lo !== undefined) return `${kind} >= ${String(lo)}`;
    return kind;
  }
  if (typeof s.pattern === "string") return `a string matching ${s.pattern}`;
  if (typeof s.description === "string") return s.description;
  if (s.type === "string" && (s.minLength !== undefined || s.maxLength !== undefined))
    return `a string of ${String(s.minLength ?? 0)} to ${String(s.maxLength ?? "any number of")} characters`;
  if (s.type === "array")
    return s.maxItems === undefined ? "an array" : `an array of at most ${String(s.maxItems)} items`;
  if (s.type === "object") return "an object";
  return "a string";
}
