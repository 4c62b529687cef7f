import { XSD_STRING } from "../vocab";

/**
 * N-Triples term serialisation (RDF 1.1 N-Triples §2.3 IRIs, §2.4 blank nodes, §2.5 literals,
 * §7 canonical escapes: only `"`, `\`, LF and CR are escaped in literals, in line with Oxigraph).
 */

const STRING_ESCAPES = /["\\\n\r]/g;
// eslint-disable-next-line no-control-regex -- control characters are what must be escaped
const IRI_NEEDS_ESCAPE = /[\x00-\x20<>"{}|^`\\]/;
// eslint-disable-next-line no-control-regex -- the same set, global
const IRI_ESCAPES = /[\x00-\x20<>"{}|^`\\]/g;

function escapeStringChar(c: string): string {
  switch (c) {
    case '"':
      return '\\"';
    case "\\":
      return "\\\\";
    case "\n":
      return "\\n";
    default:
      return "\\r";
  }
}

function escapeIriChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Control characters other than LF and CR, and UTF-16 surrogates: what the native path below must not see. */
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const NOT_FOR_JSON = /[\x00-\x09\x0b\x0c\x0e-\x1f\ud800-\udfff]/;

/** Strings at least this long are scanned by a regular expression instead of a loop (see escapeString). */
const LONG_STRING = 64;

/**
 * The escaped body of a string literal (RDF 1.1 N-Triples §2.5 STRING_LITERAL_QUOTE). A string whose
 * only characters to escape are `"`, `\`, LF and CR (JSON literals: the attribute times, GeoJSON) goes
 * through the native `JSON.stringify`, which escapes exactly these the same way when the string has no
 * other control character and no surrogate (those take the regular expression). A short string is
 * scanned in a loop (most have nothing to escape and are returned as they are); a long one (the JSON
 * literals of a history segment) by one native regular expression test, faster than the loop
 * (docs/decisions/0018-small-hot-path-costs.md).
 */
export function escapeString(s: string): string {
  if (s.length >= LONG_STRING) {
    if (NOT_FOR_JSON.test(s)) return s.replace(STRING_ESCAPES, escapeStringChar);
    const json = JSON.stringify(s);
    return json.length === s.length + 2 ? s : json.slice(1, json.length - 1);
  }
  let escapes = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34 || c === 92 || c === 10 || c === 13) escapes = true;
    else if (c < 32 || (c >= 0xd800 && c <= 0xdfff)) return s.replace(STRING_ESCAPES, escapeStringChar);
  }
  if (!escapes) return s;
  const json = JSON.stringify(s);
  return json.slice(1, json.length - 1);
}

const iriCache = new Map<string, string>();
const IRI_CACHE_LIMIT = 20_000;

/** `<iri>`, with characters not allowed in IRIREF written as UCHAR (N-Triples §2.3); memoized. */
export function ntIri(iri: string): string {
  let r = iriCache.get(iri);
  if (r === undefined) {
    r = ntIriOnce(iri);
    if (iriCache.size >= IRI_CACHE_LIMIT) iriCache.clear();
    iriCache.set(iri, r);
  }
  return r;
}

/**
 * {@link ntIri} without the memo, for an IRI written once (a history segment's graph name): it would
 * only push the IRIs that recur (predicates, types) out of the bounded cache.
 */
export function ntIriOnce(iri: string): string {
  return IRI_NEEDS_ESCAPE.test(iri) ? `<${iri.replace(IRI_ESCAPES, escapeIriChar)}>` : `<${iri}>`;
}

/** `_:label` (N-Triples §2.4). */
export function ntBlank(label: string): string {
  return `_:${label}`;
}

/** A typed literal; xsd:string literals are written in the simple form (N-Triples §2.5). */
export function ntLiteral(lexical: string, datatype: string): string {
  const body = `"${escapeString(lexical)}"`;
  return datatype === XSD_STRING ? body : `${body}^^${ntIri(datatype)}`;
}

/** A language-tagged literal `"x"@lang` (N-Triples §2.5 LANGTAG). */
export function ntLangLiteral(lexical: string, language: string): string {
  return `"${escapeString(lexical)}"@${language}`;
}

/** One N-Triples statement line, terminated by " .\n" (N-Triples §2.2). */
export function ntLine(subject: string, predicateIri: string, object: string): string {
  return `${subject} ${ntIri(predicateIri)} ${object} .\n`;
}
