import { badRequest } from "../../errors";

/**
 * A boolean combination of leaves with `;` (and) and `|` (or) and parentheses: the shape shared by
 * the query language (ETSI GS CIM 009 v1.8 §4.9), type expressions (§4.17) and scope queries (§4.19).
 * AND binds tighter than OR.
 */
export type Expr<L> = { kind: "and" | "or"; items: Expr<L>[] } | { kind: "leaf"; leaf: L };

/** Three-valued truth used when an index can only say "maybe" (narrowing before the exact check). */
export type Tri = 0 | 1 | 2;
/** Three-valued constants: false, maybe, true. */
export const FALSE: Tri = 0;
/** "Maybe": the index cannot decide; the exact evaluator must. */
export const MAYBE: Tri = 1;
/** True. */
export const TRUE: Tri = 2;

/** Where a leaf ends; leaves are parsed by the caller's own grammar. */
export interface LeafResult<L> {
  leaf: L;
  end: number;
}

/** How one expression language is spelled. */
export interface ExpressionSyntax<L> {
  /** Parameter name, for error messages (`q`, `type`, `scopeQ`). */
  parameter: string;
  /** Characters that mean OR (`|`, and `,` for type and scope expressions). */
  or: string;
  /** Parses one leaf starting at `pos`; throws {@link syntaxError} when malformed. */
  leaf(src: string, pos: number): LeafResult<L>;
}

/** A 400 BadRequestData saying what is wrong with which parameter at which position (0-based). */
export function syntaxError(parameter: string, src: string, pos: number, what: string) {
  const found = pos >= src.length ? "end of input" : JSON.stringify(src.slice(pos, pos + 12));
  return badRequest(`Invalid ${parameter} at position ${pos}: ${what}, found ${found}`, {
    parameter,
    position: pos,
    value: src,
  });
}

/** Parses a whole expression; 400 BadRequestData naming the position of the first error. */
export function parseExpression<L>(src: string, syn: ExpressionSyntax<L>): Expr<L> {
  if (src.trim() === "") throw syntaxError(syn.parameter, src, 0, "expected an expression");
  const { expr, end } = parseOr(src, 0, syn, 0);
  if (end < src.length) {
    const what = src[end] === ")" ? "unbalanced ')'" : "expected ';', '|' or the end";
    throw syntaxError(syn.parameter, src, end, what);
  }
  return expr;
}

const MAX_DEPTH = 32;

/** One precedence level: OR items are AND levels, AND items are primaries. */
function parseOr<L>(src: string, pos: number, syn: ExpressionSyntax<L>, depth: number) {
  return parseLevel(src, pos, syn, depth, "or");
}

function parseLevel<L>(
  src: string,
  pos: number,
  syn: ExpressionSyntax<L>,
  depth: number,
  kind: "and" | "or",
): { expr: Expr<L>; end: number } {
  const items: Expr<L>[] = [];
  const separators = kind === "or" ? syn.or : ";";
  let p = pos;
  for (;;) {
    const r = kind === "or" ? parseLevel(src, p, syn, depth, "and") : parsePrimary(src, p, syn, depth);
    items.push(r.expr);
    p = r.end;
    if (p < src.length && separators.includes(src[p])) p++;
    else break;
  }
  return { expr: items.length === 1 ? items[0] : { kind, items }, end: p };
}

function parsePrimary<L>(
  src: string,
  pos: number,
  syn: ExpressionSyntax<L>,
  depth: number,
): { expr: Expr<L>; end: number } {
  if (src[pos] === "(") {
    if (depth >= MAX_DEPTH) throw syntaxError(syn.parameter, src, pos, "parentheses nested too deeply");
    const r = parseOr(src, pos + 1, syn, depth + 1);
    if (src[r.end] !== ")") throw syntaxError(syn.parameter, src, r.end, "expected ')'");
    return { expr: r.expr, end: r.end + 1 };
  }
  if (pos >= src.length || src[pos] === ")" || src[pos] === ";" || syn.or.includes(src[pos])) {
    throw syntaxError(syn.parameter, src, pos, "expected a term");
  }
  const { leaf, end } = syn.leaf(src, pos);
  return { expr: { kind: "leaf", leaf }, end };
}

/** Evaluates an expression with a two-valued leaf test. */
export function evaluate<L>(e: Expr<L>, test: (leaf: L) => boolean): boolean {
  if (e.kind === "leaf") return test(e.leaf);
  if (e.kind === "and") return e.items.every((x) => evaluate(x, test));
  return e.items.some((x) => evaluate(x, test));
}

/** Evaluates an expression with a three-valued leaf test (Kleene logic). */
export function evaluate3<L>(e: Expr<L>, test: (leaf: L) => Tri): Tri {
  if (e.kind === "leaf") return test(e.leaf);
  if (e.kind === "and") {
    let r: Tri = TRUE;
    for (const x of e.items) {
      const v = evaluate3(x, test);
      if (v === FALSE) return FALSE;
      if (v < r) r = v;
    }
    return r;
  }
  let r: Tri = FALSE;
  for (const x of e.items) {
    const v = evaluate3(x, test);
    if (v === TRUE) return TRUE;
    if (v > r) r = v;
  }
  return r;
}

/** Every leaf of an expression. */
export function leavesOf<L>(e: Expr<L>): L[] {
  return e.kind === "leaf" ? [e.leaf] : e.items.flatMap((x) => leavesOf(x));
}

/** The leaves that every match must satisfy (those reached from the root through `;` only). */
export function requiredLeaves<L>(e: Expr<L>): L[] {
  if (e.kind === "leaf") return [e.leaf];
  return e.kind === "and" ? e.items.flatMap((x) => requiredLeaves(x)) : [];
}

/** Maps every leaf of an expression. */
export function mapLeaves<A, B>(e: Expr<A>, f: (leaf: A) => B): Expr<B> {
  if (e.kind === "leaf") return { kind: "leaf", leaf: f(e.leaf) };
  return { kind: e.kind, items: e.items.map((x) => mapLeaves(x, f)) };
}
