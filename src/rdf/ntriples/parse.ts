import { RDF_LANGSTRING, XSD_STRING } from "../vocab";
import type { NtTerm, NtTriple } from "./terms";

/**
 * A hand-written N-Triples parser (RDF 1.1 N-Triples §2, grammar §7): reads what Oxigraph dumps
 * (and any standard N-Triples) in one pass over the text, no per-line regular expressions.
 * Comments and blank lines are skipped; malformed input throws an Error naming the offset.
 */
export function parseNTriples(text: string): NtTriple[] {
  const out: NtTriple[] = [];
  const p = new Cursor(text);
  for (;;) {
    p.skipSpaceAndComments();
    if (p.i >= text.length) return out;
    const subject = text.charCodeAt(p.i) === LT ? p.iri() : p.blank();
    p.skipSpace();
    const predicate = p.iri().value;
    p.skipSpace();
    const c = text.charCodeAt(p.i);
    const object = c === LT ? p.iri() : c === QUOTE ? p.literal() : p.blank();
    p.skipSpace();
    if (text.charCodeAt(p.i) !== DOT) p.fail("expected '.'");
    p.i++;
    out.push({ subject, predicate, object });
  }
}

const LT = 60;
const QUOTE = 34;
const DOT = 46;
const BACKSLASH = 92;

function term(termType: NtTerm["termType"], value: string, datatype = "", language = ""): NtTerm {
  return { termType, value: own(value), datatype, language };
}

/**
 * A copy of `s` that does not keep the parsed text alive. V8 makes `slice`s of 13 or more
 * characters SlicedStrings that hold their whole parent: an index keeping four values of a decoded
 * entity kept its whole graph text (docs/decisions/0002-memory-at-scale.md). Prepending a character makes
 * a rope that `slice` flattens into a new string of the value's own size.
 */
function own(s: string): string {
  return s.length < 13 ? s : (" " + s).slice(1);
}

class Cursor {
  i = 0;
  constructor(private readonly s: string) {}

  fail(msg: string): never {
    throw new Error(`N-Triples syntax error at offset ${this.i}: ${msg}`);
  }

  skipSpace(): void {
    const s = this.s;
    let c = s.charCodeAt(this.i);
    while (c === 32 || c === 9) c = s.charCodeAt(++this.i);
  }

  skipSpaceAndComments(): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else if (c === 35) {
        const nl = s.indexOf("\n", this.i);
        this.i = nl < 0 ? s.length : nl + 1;
      } else return;
    }
  }

  iri(): NtTerm {
    const s = this.s;
    if (s.charCodeAt(this.i) !== LT) this.fail("expected IRI");
    const end = s.indexOf(">", this.i + 1);
    if (end < 0) this.fail("unterminated IRI");
    const raw = s.slice(this.i + 1, end);
    this.i = end + 1;
    return term("NamedNode", raw.includes("\\") ? unescape(raw) : raw);
  }

  blank(): NtTerm {
    const s = this.s;
    if (s.charCodeAt(this.i) !== 95 || s.charCodeAt(this.i + 1) !== 58) this.fail("expected term");
    let j = this.i + 2;
    for (
      let c = s.charCodeAt(j);
      j < s.length && c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== LT && c !== QUOTE;
    )
      c = s.charCodeAt(++j);
    while (s.charCodeAt(j - 1) === DOT) j--;
    const label = s.slice(this.i + 2, j);
    if (label.length === 0) this.fail("empty blank node label");
    this.i = j;
    return term("BlankNode", label);
  }

  literal(): NtTerm {
    const s = this.s;
    const start = this.i + 1;
    let j = start;
    let escaped = false;
    for (;;) {
      const c = s.charCodeAt(j);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        j += 2;
      } else if (j >= s.length) this.fail("unterminated literal");
      else j++;
    }
    const lexical = escaped ? unescape(s.slice(start, j)) : s.slice(start, j);
    this.i = j + 1;
    const c = s.charCodeAt(this.i);
    if (c === 64) {
      let k = this.i + 1;
      for (
        let d = s.charCodeAt(k);
        (d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 48 && d <= 57) || d === 45;
      )
        d = s.charCodeAt(++k);
      const language = s.slice(this.i + 1, k);
      this.i = k;
      return term("Literal", lexical, RDF_LANGSTRING, language);
    }
    if (c === 94 && s.charCodeAt(this.i + 1) === 94) {
      this.i += 2;
      return term("Literal", lexical, this.iri().value);
    }
    return term("Literal", lexical, XSD_STRING);
  }
}

const HEX = /^[0-9A-Fa-f]+$/;
const ECHAR: Record<string, string> = {
  t: "\t",
  b: "\b",
  n: "\n",
  r: "\r",
  f: "\f",
  '"': '"',
  "'": "'",
  "\\": "\\",
};

/** Decodes ECHAR and UCHAR escapes (N-Triples §7 productions ECHAR, UCHAR). */
export function unescape(raw: string): string {
  let out = "";
  let last = 0;
  for (let i = raw.indexOf("\\"); i >= 0; i = raw.indexOf("\\", last)) {
    out += raw.slice(last, i);
    const k = raw[i + 1];
    if (k === "u" || k === "U") {
      const len = k === "u" ? 4 : 8;
      const hex = raw.slice(i + 2, i + 2 + len);
      if (hex.length !== len || !HEX.test(hex)) throw new Error(`N-Triples: bad escape \\${k}${hex}`);
      out += String.fromCodePoint(parseInt(hex, 16));
      last = i + 2 + len;
    } else {
      const e = ECHAR[k];
      if (e === undefined) throw new Error(`N-Triples: bad escape \\${k}`);
      out += e;
      last = i + 2;
    }
  }
  return out + raw.slice(last);
}
