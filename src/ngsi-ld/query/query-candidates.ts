import type { Expr } from "./expression";
import type { TenantAttributeIndex } from "./index/attribute-index";
import { EntityFilter, requiredAttributes } from "./query-filter";

/** A set of entity ids that holds every match, with its size (to pick the smallest). */
interface Source {
  size: number;
  ids: () => Iterable<string>;
}

const EMPTY: Source = { size: 0, ids: () => [] };

function union(parts: Source[]): Source {
  if (parts.length === 1) return parts[0];
  return {
    size: parts.reduce((n, p) => n + p.size, 0),
    ids: function* () {
      const seen = new Set<string>();
      for (const p of parts)
        for (const id of p.ids()) {
          if (!seen.has(id)) {
            seen.add(id);
            yield id;
          }
        }
    },
  };
}

function ofTypes(t: TenantAttributeIndex, e: Expr<string>): Source {
  if (e.kind === "leaf") {
    const s = t.types.get(e.leaf);
    return s ? { size: s.size, ids: () => s } : EMPTY;
  }
  const parts = e.items.map((x) => ofTypes(t, x));
  if (e.kind === "or") return union(parts);
  return parts.reduce((a, b) => (b.size < a.size ? b : a));
}

function ofSelectors(t: TenantAttributeIndex, f: EntityFilter): Source | undefined {
  if (!f.selectors) return undefined;
  const parts: Source[] = [];
  for (const s of f.selectors) {
    if (s.ids) parts.push({ size: s.ids.length, ids: () => s.ids ?? [] });
    else if (s.types) parts.push(ofTypes(t, s.types));
    else return undefined;
  }
  return union(parts);
}

/**
 * The ids to check for a query (docs/design.md "Indexes beside the store"): the smallest of the sets that
 * hold every match (the entities of the selected types or ids, the entities having an attribute that
 * every match needs, the entities having one of `attrs`, the geo index's answer), else every entity of
 * the tenant.
 */
export function candidates(
  t: TenantAttributeIndex,
  f: EntityFilter,
  geoIds?: ReadonlySet<string>,
): Iterable<string> {
  const sources: Source[] = [];
  if (geoIds) sources.push({ size: geoIds.size, ids: () => geoIds });
  const sel = ofSelectors(t, f);
  if (sel) sources.push(sel);
  for (const iri of requiredAttributes(f)) {
    const m = t.attrs.get(iri);
    sources.push(m ? { size: m.size, ids: () => m.keys() } : EMPTY);
  }
  if (f.attrs) {
    sources.push(
      union(
        f.attrs.iris.map((iri) => {
          const m = t.attrs.get(iri);
          return m ? { size: m.size, ids: () => m.keys() } : EMPTY;
        }),
      ),
    );
  }
  if (sources.length === 0) return t.entities.keys();
  return sources.reduce((a, b) => (b.size < a.size ? b : a)).ids();
}
