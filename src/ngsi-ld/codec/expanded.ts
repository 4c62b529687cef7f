import type { JsonValue } from "./types";

/**
 * The expanded JSON-LD form rebuilt from an entity graph (JSON-LD 1.1 API §8.5 RDF to Object
 * Conversion, with native numbers/booleans for canonical lexical forms), as compact input.
 */
export type XValue = XLiteral | XRef | XNode | XList;

/** A value object: `{@value, @type?}` or `{@value, @language}`; `t` may be "@json". */
export interface XLiteral {
  k: "lit";
  v: JsonValue;
  t: string | undefined;
  l: string | undefined;
  /** For a native number/boolean: the datatype the literal carried (to find coerced terms). */
  native: string | undefined;
}
/** A node reference `{@id}`. */
export interface XRef {
  k: "ref";
  id: string;
}
/** A node object (blank node, embedded) with its types and properties in graph order. */
export interface XNode {
  k: "node";
  id: string | undefined;
  types: string[];
  props: Map<string, XValue[]>;
}
/** A list object `{@list}`. */
export interface XList {
  k: "list";
  items: XValue[];
}
