import type { UserPattern } from "../user-pattern";
import type { Expr } from "../expression";

/** The comparison operators of the query language (ETSI GS CIM 009 v1.8 §4.9, ABNF `Operator`). */
export type QOperator = "==" | "!=" | ">" | ">=" | "<" | "<=" | "~=" | "!~=";

/**
 * One literal of a query term (§4.9 `ComparableValue`, `OtherValue`, `URI`): numbers, quoted strings,
 * date-times (compared as instants), dates, times, booleans, and unquoted URIs (relationship objects).
 */
export type QScalar =
  | { t: "number"; v: number }
  | { t: "string"; v: string }
  | { t: "dateTime"; v: number; raw: string }
  | { t: "date"; v: string }
  | { t: "time"; v: string }
  | { t: "boolean"; v: boolean }
  | { t: "uri"; v: string };

/** The right-hand side of a query term: one value, a value list, a range, or a pattern. */
export type QOperand =
  | { kind: "value"; value: QScalar }
  | { kind: "list"; values: QScalar[] }
  | { kind: "range"; low: QScalar; high: QScalar }
  | { kind: "pattern"; regex: UserPattern };

/**
 * The target of a query term (§4.9 `attrPathName`, `compoundAttrName`): an attribute, then dotted
 * sub-attribute (or meta member such as `observedAt`) names, then `[key]` steps into its value.
 */
export interface QPath {
  /** Attribute then sub-attribute names as written in the request (terms, not yet expanded). */
  names: string[];
  /** Keys into the JSON value (`[key]`), in order. */
  keys: string[];
}

/** One query term: a path alone (existence) or a path, an operator and an operand. */
export interface QTerm {
  path: QPath;
  op?: QOperator;
  operand?: QOperand;
}

/** A parsed `q` expression. */
export type QExpr = Expr<QTerm>;

/** A path whose names have been resolved with the request's @context. */
export interface ResolvedPath {
  /** The attribute name as the entity is compacted with the request's context (canonical name). */
  attr: string;
  /** The attribute's expanded IRI (the key of derived indexes). */
  attrIri: string;
  /** Sub-attribute canonical names or meta members (observedAt, unitCode, ...), after the attribute. */
  subs: string[];
  /** `[key]` steps as written, and as canonical names (values compacted with the same context). */
  keys: { raw: string; canonical: string }[];
}

/** A query term ready to evaluate. */
export interface ResolvedTerm {
  path: ResolvedPath;
  op?: QOperator;
  operand?: QOperand;
}

/** A `q` expression ready to evaluate. */
export type ResolvedQ = Expr<ResolvedTerm>;
