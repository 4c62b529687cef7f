import { XSD_STRING } from "../vocab";

/**
 * N-Triples term serialisation (RDF 1.1 N-Triples §2.3 IRIs, §2.4 blank nodes, §2.5 literals,
 * §7 canonical escapes: only `"`, `\`, LF and CR are escaped in literals, in line with Oxigraph).
 */

const STRING_NEEDS_ESCAPE = /["\\\n\r]/;
const STRING_ESCAPES = /["\\\n\r]/g;
const IRI_NEEDS_ESCAPE = /[\x00-\x20<>"{}|^`\\]/;
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

/** The escaped body of a string literal (RDF 1.1 N-Triples §2.5 STRING_LITERAL_QUOTE). */
export function escapeString(s: string): string {
  return STRING_NEEDS_ESCAPE.test(s) ? s.replace(STRING_ESCAPES, escapeStringChar) : s;
}

/** `<iri>`, with characters not allowed in IRIREF written as UCHAR (N-Triples §2.3). */
export function ntIri(iri: string): string {
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
