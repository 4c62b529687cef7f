import { RDF_JSON, XSD_BOOLEAN, XSD_DOUBLE, XSD_INTEGER } from "../../rdf/vocab";
import type { JsonValue } from "./types";

/**
 * Literal lexical forms exactly as jsonld.js 9 writes them (JSON-LD 1.1 API §8.6 Object to RDF
 * Conversion, steps 8–13) and their inverse for compaction.
 */

/** jsonld.js's "is double": has a '.' in its JS string form or |n| >= 1e21. */
export function isDouble(n: number): boolean {
  return String(n).includes(".") || Math.abs(n) >= 1e21;
}

const DOUBLE_TRIM = /(\d)0*e\+?/;
/** xsd:integer and finite xsd:double lexical spaces (XML Schema 1.1 Part 2 §3.4.13, §3.3.5). */
const INTEGER = /^[+-]?\d+$/;
const DOUBLE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Canonical forms already written: a sensor's values repeat (a few digits of precision), and each value is
 * written twice per entity (its ngsi-ld:hasValue and its shortcut triple), while `toExponential(15)` was
 * the codec's costliest number step. Bounded; keys compare by SameValueZero, and 0 and -0 share "0E0".
 */
const doubles = new Map<number, string>();
const DOUBLES_LIMIT = 8192;

/** Canonical xsd:double lexical form, e.g. 1.5 -> "1.5E0" (JSON-LD 1.1 API §8.6 step 10); memoized. */
export function canonicalDouble(n: number): string {
  let d = doubles.get(n);
  if (d === undefined) {
    if (doubles.size >= DOUBLES_LIMIT) doubles.clear();
    doubles.set(n, (d = toCanonicalDouble(n)));
  }
  return d;
}

function toCanonicalDouble(n: number): string {
  const s = n.toExponential(15);
  const e = s.indexOf("e");
  if (e < 0) return s.replace(DOUBLE_TRIM, "$1E");
  let end = e;
  while (s.charCodeAt(end - 1) === 48 && s.charCodeAt(end - 2) !== 46) end--;
  const exp = s.charCodeAt(e + 1) === 43 ? s.slice(e + 2) : s.slice(e + 1);
  return `${s.slice(0, end)}E${exp}`;
}

/** A native JSON number or boolean as [lexical, datatype] (datatype defaults per §8.6). */
export function nativeLexical(v: number | boolean, datatype: string | undefined): [string, string] {
  if (typeof v === "boolean") return [String(v), datatype ?? XSD_BOOLEAN];
  if (isDouble(v) || datatype === XSD_DOUBLE) return [canonicalDouble(v), datatype ?? XSD_DOUBLE];
  return [v.toFixed(0), datatype ?? XSD_INTEGER];
}

/**
 * JSON Canonicalization Scheme text (RFC 8785), as jsonld.js uses for rdf:JSON literals
 * (JSON-LD 1.1 API §8.6 step 5).
 */
export function canonicalJson(v: JsonValue): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v))
    return v.every(isPrimitive) ? JSON.stringify(v) : `[${v.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(v).sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out += ",";
    out += `${JSON.stringify(keys[i])}:${canonicalJson(v[keys[i]])}`;
  }
  return `${out}}`;
}

/**
 * The native JSON value of a typed literal: any xsd:integer (below 1e21) / finite xsd:double /
 * xsd:boolean lexical form (stores such as Oxigraph rewrite "3.75E1" as "37.5"), and rdf:JSON.
 * Undefined otherwise (the literal then compacts as a typed value object).
 */
export function nativeFromLexical(lexical: string, datatype: string): JsonValue | undefined {
  switch (datatype) {
    case XSD_INTEGER: {
      if (!INTEGER.test(lexical)) return undefined;
      const n = Number(lexical);
      return Number.isSafeInteger(n) || Math.abs(n) < 1e21 ? n : undefined;
    }
    case XSD_DOUBLE:
      return DOUBLE.test(lexical) ? Number(lexical) : undefined;
    case XSD_BOOLEAN:
      return lexical === "true" ? true : lexical === "false" ? false : undefined;
    case RDF_JSON:
      return JSON.parse(lexical) as JsonValue;
    default:
      return undefined;
  }
}

function isPrimitive(v: JsonValue): boolean {
  return v === null || typeof v !== "object";
}
