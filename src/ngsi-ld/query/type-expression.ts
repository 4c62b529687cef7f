import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { isValidName } from "../model/uri";
import { evaluate, Expr, mapLeaves, parseExpression, syntaxError } from "./expression";

/** A type expression with expanded type IRIs as leaves. */
export type TypeExpr = Expr<string>;

/**
 * Parses an entity type selection (ETSI GS CIM 009 v1.8 §4.17): type names joined by `,` or `|` (or),
 * `;` (and), with parentheses; names are expanded with the request's @context. 400 BadRequestData
 * naming the position of a malformed expression.
 */
export function parseTypeExpression(src: string, ctx: CompiledContext, parameter = "type"): TypeExpr {
  const e = parseExpression(src, {
    parameter,
    or: ",|",
    leaf: (s, pos) => {
      let end = pos;
      while (end < s.length && !",|;()".includes(s[end])) end++;
      const name = s.slice(pos, end).trim();
      if (!isValidName(name)) throw syntaxError(parameter, s, pos, "expected a type name");
      return { leaf: name, end };
    },
  });
  return mapLeaves(e, (t) => ctx.expandTerm(t));
}

/** True if an entity with the expanded types `types` matches the expression. */
export function matchesTypes(e: TypeExpr, types: readonly string[]): boolean {
  // a single type (the common case) without the evaluator's closure: this runs for every candidate
  return e.kind === "leaf" ? types.includes(e.leaf) : evaluate(e, (t) => types.includes(t));
}
