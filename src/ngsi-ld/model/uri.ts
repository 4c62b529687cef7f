/**
 * Characters the graph's IRIs (ids, names and types are stored as IRIs) cannot hold, RFC 3987 §2.2 read as
 * the store reads it: C1 controls, lone surrogates, private-use and noncharacter code points, the specials
 * block (U+FFFD, what a decoder leaves of bytes that are not UTF-8, among them) and the tags plane.
 */
const NOT_IN_IRI = /[\x7f-\x9f\p{Cs}\p{Co}\p{Noncharacter_Code_Point}\uFFF0-\uFFFF\u{E0000}-\u{E0FFF}]/u;

/**
 * True if `s` is an absolute URI (RFC 3986 §4.3: a scheme, ":", then at least one character) with no
 * characters that can never appear in a URI. ETSI GS CIM 009 §4.5.1 requires entity ids, datasetIds
 * and relationship objects to be URIs.
 */
export function isAbsoluteUri(s: unknown): s is string {
  return typeof s === "string" && /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/.test(s) && !NOT_IN_IRI.test(s);
}

/**
 * True if `name` may be used as an attribute or type name (§4.6.2: no characters from the forbidden
 * set `<>"'=;()` and no control characters or white space).
 */
export function isValidName(name: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is forbidden
  return name.length > 0 && !/[<>"'=;()\s\u0000-\u001f]/.test(name) && !NOT_IN_IRI.test(name);
}
