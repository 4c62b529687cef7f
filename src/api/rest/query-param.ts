import { badRequest } from "../../errors";
import { js, type JsonSchema } from "./json-schema";

/**
 * One query (or path) parameter of a REST route: its schema for the OpenAPI document and the parser
 * that turns the raw text into a typed value. A bad value is a 400 `INVALID_PARAMETER` with
 * `details{parameter, value, expected}` (traffic-service-interface.md §7).
 */
export interface Param<T> {
  schema: JsonSchema;
  description?: string;
  /** A missing required parameter is a 400 `INVALID_REQUEST`. */
  required?: boolean;
  /** Repeated (`a=x&a=y`) and comma-separated values both read as a list. */
  list?: boolean;
  parse(values: readonly string[], name: string): T;
}

/** The 400 of a bad parameter value. */
export function invalidParam(name: string, value: unknown, expected: string): Error {
  return badRequest(`Invalid value for parameter '${name}': expected ${expected}`, {
    parameter: name,
    value,
    expected,
  });
}

function single(values: readonly string[], name: string, expected: string): string {
  if (values.length > 1) throw invalidParam(name, values, `a single value: ${expected}`);
  return values[0];
}

/** An integer in [min, max]; `def` when absent. */
export function intParam(opts: {
  min: number;
  max: number;
  def?: number;
  description?: string;
}): Param<number> {
  const expected = `an integer from ${opts.min} to ${opts.max}`;
  return {
    schema: js.int({
      minimum: opts.min,
      maximum: opts.max,
      ...(opts.def !== undefined ? { default: opts.def } : {}),
    }),
    description: opts.description,
    parse(values, name) {
      if (values.length === 0) return opts.def as number;
      const raw = single(values, name, expected);
      if (!/^[+-]?\d{1,16}$/.test(raw.trim())) throw invalidParam(name, raw, expected);
      const n = Number(raw);
      if (n < opts.min || n > opts.max) throw invalidParam(name, raw, expected);
      return n;
    },
  };
}

/** One of `values`; `def` (or undefined) when absent. */
export function enumParam<E extends string>(
  values: readonly E[],
  opts: { def?: E; description?: string } = {},
): Param<E | undefined> {
  const expected = `one of ${values.join(", ")}`;
  return {
    schema: js.enumOf(values, opts.def !== undefined ? { default: opts.def } : {}),
    description: opts.description,
    parse(vals, name) {
      if (vals.length === 0) return opts.def;
      const raw = single(vals, name, expected);
      if (!(values as readonly string[]).includes(raw)) throw invalidParam(name, raw, expected);
      return raw as E;
    },
  };
}

/** Free text up to `maxLength` characters (after trimming); undefined when absent or empty. */
export function textParam(opts: {
  maxLength: number;
  description?: string;
  required?: boolean;
}): Param<string | undefined> {
  const expected = `text of at most ${opts.maxLength} characters`;
  return {
    schema: js.str({ maxLength: opts.maxLength }),
    description: opts.description,
    required: opts.required,
    parse(values, name) {
      if (values.length === 0) return undefined;
      const raw = single(values, name, expected).trim();
      if (raw.length > opts.maxLength) throw invalidParam(name, raw.slice(0, 100), expected);
      return raw === "" ? undefined : raw;
    },
  };
}

/** Earliest and latest instants accepted anywhere (years 1970 to 9999). */
const MIN_TIME = 0;
const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date or date-time (a date-time without an offset is UTC); epoch ms, undefined when absent. */
export function dateTimeParam(
  opts: { description?: string; required?: boolean } = {},
): Param<number | undefined> {
  const expected = "an ISO 8601 date-time, e.g. 2026-11-25T08:00:00Z";
  return {
    schema: js.dateTime(),
    description: opts.description,
    required: opts.required,
    parse(values, name) {
      if (values.length === 0) return undefined;
      const raw = single(values, name, expected).trim();
      if (!ISO.test(raw)) throw invalidParam(name, raw, expected);
      const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(raw) && raw.includes("T");
      const t = Date.parse(hasZone || !raw.includes("T") ? raw : raw + "Z");
      if (!Number.isFinite(t) || t < MIN_TIME || t > MAX_TIME) throw invalidParam(name, raw, expected);
      return t;
    },
  };
}

/** A list of values from `values`, given repeated (`m=a&m=b`) or comma-separated (`m=a,b`); [] when absent. */
export function enumListParam<E extends string>(values: readonly E[], description?: string): Param<E[]> {
  const expected = `a list of ${values.join(", ")} (repeated or comma-separated)`;
  return {
    schema: js.array(js.enumOf(values), { uniqueItems: false }),
    description,
    list: true,
    parse(vals, name) {
      const items = vals
        .flatMap((v) => v.split(","))
        .map((v) => v.trim())
        .filter((v) => v !== "");
      for (const v of items)
        if (!(values as readonly string[]).includes(v)) throw invalidParam(name, v, expected);
      return [...new Set(items)] as E[];
    },
  };
}

/** Raw text kept as given (the cursor form's `cursor`: "" starts a walk); undefined when absent. */
export function rawParam(opts: { maxLength: number; description?: string }): Param<string | undefined> {
  return {
    schema: js.str({ maxLength: opts.maxLength }),
    description: opts.description,
    parse(values, name) {
      if (values.length === 0) return undefined;
      return single(values, name, `a single value`);
    },
  };
}
