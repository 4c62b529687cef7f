import { compileUserPattern } from "../user-pattern";
import { isDateTime } from "../../model/datetime";
import { isAbsoluteUri } from "../../model/uri";
import { LeafResult, parseExpression, syntaxError } from "../expression";
import type { QExpr, QOperand, QOperator, QPath, QScalar, QTerm } from "./q-ast";

const P = "q";
/** Characters of an attribute name (§4.9 `attrNameChar`, plus those of compact IRIs). */
const NAME_CHAR = /[A-Za-z0-9_:/#@-]/;
/** Operators, longest first so that `>=` is not read as `>`. */
const OPERATORS: QOperator[] = ["!~=", "==", "!=", ">=", "<=", "~=", ">", "<"];
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?$/;
/** Longest accepted pattern (a guard against pathological regular expressions). */
const MAX_PATTERN = 256;

/**
 * Parses a `q` parameter (ETSI GS CIM 009 v1.8 §4.9 and its ABNF): terms joined by `;` (and) and `|`
 * (or) with parentheses. Throws 400 BadRequestData saying what was expected at which position.
 */
export function parseQ(src: string): QExpr {
  return parseExpression(src, { parameter: P, or: "|", leaf: parseTerm });
}

function parseTerm(src: string, pos: number): LeafResult<QTerm> {
  const { path, end } = parsePath(src, pos);
  const op = OPERATORS.find((o) => src.startsWith(o, end));
  if (!op) {
    if (end < src.length && !";|)".includes(src[end])) {
      throw syntaxError(P, src, end, "expected an operator (==, !=, >, >=, <, <=, ~=, !~=), ';', '|' or ')'");
    }
    return { leaf: { path }, end };
  }
  const at = end + op.length;
  if (op === "~=" || op === "!~=") {
    const r = parsePattern(src, at);
    return { leaf: { path, op, operand: r.operand }, end: r.end };
  }
  const r = parseOperand(src, at, op);
  return { leaf: { path, op, operand: r.operand }, end: r.end };
}

function parseName(src: string, pos: number, what: string): { name: string; end: number } {
  let p = pos;
  while (p < src.length && NAME_CHAR.test(src[p])) p++;
  if (p === pos) throw syntaxError(P, src, pos, `expected ${what}`);
  return { name: src.slice(pos, p), end: p };
}

function parsePath(src: string, pos: number): { path: QPath; end: number } {
  const names: string[] = [];
  const keys: string[] = [];
  let r = parseName(src, pos, "an attribute name");
  names.push(r.name);
  let p = r.end;
  while (src[p] === "." && src[p + 1] !== ".") {
    r = parseName(src, p + 1, "a sub-attribute name after '.'");
    names.push(r.name);
    p = r.end;
  }
  while (src[p] === "[") {
    const close = src.indexOf("]", p + 1);
    if (close < 0) throw syntaxError(P, src, p, "unclosed '['");
    const key = src.slice(p + 1, close);
    if (key === "" || /[[;|()"]/.test(key)) throw syntaxError(P, src, p + 1, "expected a key inside [ ]");
    keys.push(key);
    p = close + 1;
  }
  return { path: { names, keys }, end: p };
}

/** A pattern: a quoted string, or raw text up to `;` / `|` / an unbalanced `)` (§4.9 `RegExp`). */
function parsePattern(src: string, pos: number): { operand: QOperand; end: number } {
  let text: string;
  let end: number;
  if (src[pos] === '"') ({ value: text, end } = quoted(src, pos));
  else {
    let depth = 0;
    end = pos;
    for (; end < src.length; end++) {
      const c = src[end];
      if (c === "\\") end++;
      else if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      } else if ((c === ";" || c === "|") && depth === 0) break;
    }
    text = src.slice(pos, end);
  }
  if (text === "") throw syntaxError(P, src, pos, "expected a regular expression");
  if (text.length > MAX_PATTERN) throw syntaxError(P, src, pos, `pattern longer than ${MAX_PATTERN}`);
  try {
    return { operand: { kind: "pattern", regex: compileUserPattern(text, P) }, end };
  } catch (e) {
    throw syntaxError(P, src, pos, `invalid regular expression (${(e as Error).message})`);
  }
}

function quoted(src: string, pos: number): { value: string; end: number } {
  let out = "";
  for (let p = pos + 1; p < src.length; p++) {
    const c = src[p];
    if (c === "\\" && p + 1 < src.length) out += src[++p];
    else if (c === '"') return { value: out, end: p + 1 };
    else out += c;
  }
  throw syntaxError(P, src, pos, "unterminated string");
}

/** One value: quoted string, or an unquoted number, date-time, date, time, boolean or URI. */
function parseScalar(src: string, pos: number): { value: QScalar; end: number } {
  if (src[pos] === '"') {
    const r = quoted(src, pos);
    return { value: { t: "string", v: r.value }, end: r.end };
  }
  let end = pos;
  while (end < src.length && !";|),".includes(src[end]) && !src.startsWith("..", end)) end++;
  // A URI may hold ".."-free dots and commas never; a date-time's fraction has one dot.
  const raw = src.slice(pos, end);
  if (raw === "") throw syntaxError(P, src, pos, "expected a value");
  return { value: classify(raw, src, pos), end };
}

function classify(raw: string, src: string, pos: number): QScalar {
  if (raw === "true" || raw === "false") return { t: "boolean", v: raw === "true" };
  if (NUMBER.test(raw)) return { t: "number", v: Number(raw) };
  if (isDateTime(raw)) return { t: "dateTime", v: Date.parse(raw), raw };
  if (DATE.test(raw)) return { t: "date", v: raw };
  if (TIME.test(raw)) return { t: "time", v: raw };
  if (isAbsoluteUri(raw)) return { t: "uri", v: raw };
  throw syntaxError(
    P,
    src,
    pos,
    "expected a number, a quoted string, a date-time, a date, a time, true, false or a URI",
  );
}

const ORDERING = new Set<QOperator>([">", ">=", "<", "<="]);

function parseOperand(src: string, pos: number, op: QOperator): { operand: QOperand; end: number } {
  const first = parseScalar(src, pos);
  let end = first.end;
  if (src.startsWith("..", end)) {
    const high = parseScalar(src, end + 2);
    if (ORDERING.has(op)) throw syntaxError(P, src, pos, `a range needs == or !=, not ${op}`);
    if (first.value.t !== high.value.t || !comparable(first.value)) {
      throw syntaxError(P, src, pos, "a range needs two numbers, strings, date-times, dates or times");
    }
    return { operand: { kind: "range", low: first.value, high: high.value }, end: high.end };
  }
  const values = [first.value];
  while (src[end] === ",") {
    const next = parseScalar(src, end + 1);
    values.push(next.value);
    end = next.end;
  }
  if (values.length > 1) {
    if (ORDERING.has(op)) throw syntaxError(P, src, pos, `a value list needs == or !=, not ${op}`);
    return { operand: { kind: "list", values }, end };
  }
  if (ORDERING.has(op) && !comparable(first.value)) {
    throw syntaxError(P, src, pos, `${op} needs a number, a string, a date-time, a date or a time`);
  }
  return { operand: { kind: "value", value: first.value }, end };
}

function comparable(v: QScalar): boolean {
  return v.t !== "boolean" && v.t !== "uri";
}
