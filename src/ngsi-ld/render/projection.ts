import { badRequest } from "../../errors";
import { isValidName } from "../model/uri";

/** A parsed `pick` or `omit` list: member names, and nested lists for linked entities. */
export interface Projection {
  names: Set<string>;
  nested: Map<string, Projection>;
}

/**
 * Parses a `pick`/`omit` expression (ETSI GS CIM 009 v1.8 §4.21): names separated by commas, where a
 * relationship name may carry `{...}`, the projection of the entities it links to (used with `join`).
 * `canon` maps each attribute name to its canonical form. 400 BadRequestData naming the position.
 */
export function parseProjection(src: string, parameter: string, canon: (n: string) => string): Projection {
  const fail = (pos: number, what: string) =>
    badRequest(`Invalid ${parameter} at position ${pos}: ${what}`, { parameter, position: pos, value: src });
  let pos = 0;
  const list = (): Projection => {
    const p: Projection = { names: new Set(), nested: new Map() };
    for (;;) {
      const start = pos;
      while (pos < src.length && !",{}".includes(src[pos])) pos++;
      const name = src.slice(start, pos).trim();
      if (!isValidName(name)) throw fail(start, "expected a member name");
      const n = name === "id" || name === "type" ? name : canon(name);
      p.names.add(n);
      if (src[pos] === "{") {
        pos++;
        p.nested.set(n, list());
        if (src[pos] !== "}") throw fail(pos, "expected '}'");
        pos++;
      }
      if (src[pos] !== ",") return p;
      pos++;
    }
  };
  const p = list();
  if (pos < src.length) throw fail(pos, "unexpected '}'");
  return p;
}
