import { badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { ATTRIBUTE_META_MEMBERS } from "../model/attribute-kinds";
import { canonicalName } from "../model/canonical-names";
import { instancesOf, type Entity } from "../model/entity";

/** One sort key of `orderBy` (ETSI GS CIM 009 v1.9 §4.23): a member path and its direction. */
export interface OrderKey {
  path: string[];
  desc: boolean;
}

const ENTITY_MEMBERS = new Set(["id", "type", "createdAt", "modifiedAt"]);

/**
 * Parses `orderBy` (§4.23): comma-separated `path[;asc|desc]`, a path being `id`, `type`, `createdAt`,
 * `modifiedAt`, or an attribute with optional sub-attribute or meta-member steps (`name.subProperty`,
 * `name.createdAt`). Attribute names are read with the request's @context. 400 when malformed.
 */
export function parseOrderBy(src: string, ctx: CompiledContext): OrderKey[] {
  return src.split(",").map((part) => {
    const [path, dir, extra] = part.trim().split(";");
    if (!path || extra !== undefined || (dir !== undefined && dir !== "asc" && dir !== "desc")) {
      throw badRequest(`orderBy: ${JSON.stringify(part)} is not path[;asc|desc]`, { parameter: "orderBy" });
    }
    const steps = path.split(".");
    if (steps.some((s) => s === ""))
      throw badRequest(`orderBy: empty step in ${path}`, { parameter: "orderBy" });
    const names =
      steps.length === 1 && ENTITY_MEMBERS.has(steps[0])
        ? steps
        : steps.map((s, i) => (i > 0 && ATTRIBUTE_META_MEMBERS.has(s) ? s : canonicalName(ctx, s)));
    return { path: names, desc: dir === "desc" };
  });
}

/** The value a key sorts an entity by (the first instance's value along the path), or undefined. */
function valueAt(e: Entity, path: string[]): unknown {
  if (path.length === 1 && ENTITY_MEMBERS.has(path[0])) {
    const v = e[path[0]];
    return Array.isArray(v) ? v[0] : v;
  }
  let node: unknown = instancesOf(e, path[0])[0];
  for (const step of path.slice(1)) {
    if (typeof node !== "object" || node === null) return undefined;
    const next = (node as Record<string, unknown>)[step];
    node = Array.isArray(next) ? next[0] : next;
  }
  if (typeof node !== "object" || node === null) return node;
  const n = node as Record<string, unknown>;
  return n.value ?? n.object ?? n.languageMap ?? n.vocab ?? n.json;
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const sa = typeof a === "string" ? a : JSON.stringify(a);
  const sb = typeof b === "string" ? b : JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * Sorts entities by the keys in turn (§4.23); an entity without a value for a key sorts after those
 * with one, whatever the direction; ties keep their order.
 */
export function sortEntities(entities: Entity[], keys: OrderKey[]): Entity[] {
  return entities
    .map((e, i) => ({ e, i, vals: keys.map((k) => valueAt(e, k.path)) }))
    .sort((x, y) => {
      for (let k = 0; k < keys.length; k++) {
        const a = x.vals[k];
        const b = y.vals[k];
        if (a === undefined || b === undefined) {
          if (a !== b) return a === undefined ? 1 : -1;
          continue;
        }
        const c = compareValues(a, b);
        if (c !== 0) return keys[k].desc ? -c : c;
      }
      return x.i - y.i;
    })
    .map((x) => x.e);
}
