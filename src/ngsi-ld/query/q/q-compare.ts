import { isDateTime } from "../../model/datetime";
import type { QOperand, QOperator, QScalar } from "./q-ast";

/**
 * Comparison of target values with query literals (ETSI GS CIM 009 v1.8 §4.9): numbers numerically,
 * strings lexicographically, date-times as instants, booleans by equality, URIs as strings. A target
 * of another data type never satisfies a comparison, and is unequal (`!=`).
 */

/** -1/0/1 comparing target `t` with literal `s`, or undefined if their data types differ. */
export function compareScalar(t: unknown, s: QScalar): number | undefined {
  switch (s.t) {
    case "number":
      return typeof t === "number" ? sign(t - s.v) : undefined;
    case "boolean":
      return typeof t === "boolean" ? (t === s.v ? 0 : 1) : undefined;
    case "dateTime":
      return isDateTime(t) ? sign(Date.parse(t) - s.v) : undefined;
    case "string":
    case "uri":
    case "date":
    case "time":
      return typeof t === "string" ? (t < s.v ? -1 : t > s.v ? 1 : 0) : undefined;
  }
}

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

function equalsAny(t: unknown, values: QScalar[]): boolean {
  return values.some((s) => compareScalar(t, s) === 0);
}

function inRange(t: unknown, low: QScalar, high: QScalar): boolean {
  const a = compareScalar(t, low);
  const b = compareScalar(t, high);
  return a !== undefined && b !== undefined && a >= 0 && b <= 0;
}

function holds(t: unknown, op: QOperator, s: QScalar): boolean {
  const c = compareScalar(t, s);
  if (c === undefined) return false;
  switch (op) {
    case ">":
      return c > 0;
    case ">=":
      return c >= 0;
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    default:
      return c === 0;
  }
}

/**
 * True if the target values of ONE attribute instance satisfy `op operand` (§4.9): for `==`, any value
 * equals (any list member, or lies in the range); `!=` is its negation over a present target; ordering
 * operators need some value on the right side; `~=` needs some string matching, `!~=` strings none of
 * which match.
 */
export function instanceSatisfies(values: unknown[], op: QOperator, operand: QOperand): boolean {
  if (values.length === 0) return false;
  if (values.length === 1) return valueSatisfies(values[0], op, operand);
  if (operand.kind === "pattern") {
    const strings = values.filter((v): v is string => typeof v === "string");
    const hit = strings.some((s) => operand.regex.test(s));
    return op === "~=" ? hit : strings.length > 0 && !hit;
  }
  if (op === "==") return values.some((t) => equalsOperand(t, operand));
  if (op === "!=") return !values.some((t) => equalsOperand(t, operand));
  if (operand.kind !== "value") return false;
  return values.some((t) => holds(t, op, operand.value));
}

/**
 * {@link instanceSatisfies} for an instance with the single target value `t`, allocating nothing (the
 * query path calls it for every candidate the attribute index decides).
 */
export function valueSatisfies(t: unknown, op: QOperator, operand: QOperand): boolean {
  if (operand.kind === "pattern") return typeof t === "string" && operand.regex.test(t) === (op === "~=");
  if (op === "==") return equalsOperand(t, operand);
  if (op === "!=") return !equalsOperand(t, operand);
  return operand.kind === "value" && holds(t, op, operand.value);
}

function equalsOperand(t: unknown, operand: Exclude<QOperand, { kind: "pattern" }>): boolean {
  if (operand.kind === "range") return inRange(t, operand.low, operand.high);
  if (operand.kind === "list") return equalsAny(t, operand.values);
  return compareScalar(t, operand.value) === 0;
}
