import { isEntityGraph, type CommitEvent, type GraphStore } from "../graph-store";
import { RefTable } from "./index-image";

const RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";

/**
 * One tenant of the entity index in an image (index-image.ts): its ids in order, and each one's types as a
 * reference into the distinct lists of types (most entities share theirs).
 */
export interface EntityIndexImage {
  tenant: string;
  ids: string[];
  typeLists: string[][];
  typeRefs: Int32Array;
}

/**
 * The id/type index (docs/design.md "Indexes beside the store, derived from it"): for every tenant, the
 * entity graphs that exist and the expanded types of each. Built from the graph at start, kept
 * current by the change feed; a cache that can always be rebuilt from the store.
 */
export class EntityIndex {
  private readonly tenants = new Map<string, Map<string, string[]>>();

  /** Rebuilds the index from the store (start-up). */
  async rebuild(store: GraphStore): Promise<void> {
    this.tenants.clear();
    for (const tenant of await store.tenants()) {
      const rows = await store.select(tenant, `SELECT ?g ?t WHERE { GRAPH ?g { ?g a ?t } }`);
      const map = this.tenantMap(tenant);
      for (const r of rows) {
        const id = r.g.slice(1, -1);
        if (!isEntityGraph(id)) continue;
        const t = typeIri(r.t.slice(1, -1));
        const list = map.get(id);
        if (list) list.push(t);
        else map.set(id, [t]);
      }
    }
  }

  /** Every tenant as an image part (for a clean stop's index image). */
  imageParts(): EntityIndexImage[] {
    const out: EntityIndexImage[] = [];
    for (const [tenant, map] of this.tenants) {
      const lists = new RefTable<string[]>();
      const typeRefs = new Int32Array(map.size);
      let i = 0;
      for (const types of map.values()) typeRefs[i++] = lists.ref(types.join("\n"), types);
      out.push({ tenant, ids: [...map.keys()], typeLists: lists.values, typeRefs });
    }
    return out;
  }

  /** Replaces the index by the one of an image (a start after a clean stop). */
  loadImage(parts: EntityIndexImage[]): void {
    this.tenants.clear();
    for (const p of parts) {
      const map = this.tenantMap(p.tenant);
      const lists = p.typeLists.map((l) => l.map(typeIri));
      p.ids.forEach((id, i) => map.set(id, lists[p.typeRefs[i]].slice()));
    }
  }

  /** Applies one committed write (the change-feed listener). */
  apply(event: CommitEvent): void {
    const map = this.tenantMap(event.tenant);
    for (const w of event.writes) {
      if (w.triples === null) map.delete(w.graph);
      else map.set(w.graph, typesInTriples(w.graph, w.triples));
    }
  }

  /** True if entity `id` exists in `tenant`. */
  has(tenant: string, id: string): boolean {
    return this.tenants.get(tenant)?.has(id) ?? false;
  }

  /** Expanded types of entity `id`, or undefined. */
  types(tenant: string, id: string): string[] | undefined {
    return this.tenants.get(tenant)?.get(id);
  }

  /** Every entity id of `tenant` with its types, in insertion order. */
  entries(tenant: string): IterableIterator<[string, string[]]> {
    return this.tenantMap(tenant).entries();
  }

  /** Every entity id of `tenant`, in insertion order. */
  ids(tenant: string): IterableIterator<string> {
    return this.tenantMap(tenant).keys();
  }

  /** Number of entities of `tenant`. */
  size(tenant: string): number {
    return this.tenants.get(tenant)?.size ?? 0;
  }

  /** Tenants known to the index. */
  tenantNames(): string[] {
    return [...this.tenants.keys()].filter((t) => (this.tenants.get(t)?.size ?? 0) > 0);
  }

  private tenantMap(tenant: string): Map<string, string[]> {
    let m = this.tenants.get(tenant);
    if (!m) this.tenants.set(tenant, (m = new Map()));
    return m;
  }
}

/** The rdf:type objects of subject `id` in N-Triples text (lines `<id> rdf:type <T> .`). */
export function typesInTriples(id: string, triples: string): string[] {
  const prefix = `<${id}> ${RDF_TYPE} <`;
  const out: string[] = [];
  let at = triples.indexOf(prefix);
  while (at !== -1) {
    const start = at + prefix.length;
    const end = triples.indexOf(">", start);
    out.push(typeIri(triples.slice(start, end)));
    at = triples.indexOf(prefix, end);
  }
  return out;
}

const typeIris = new Map<string, string>();

/**
 * The one shared copy of a type IRI. A `slice` of the graph text is a V8 SlicedString that keeps the
 * whole text alive (docs/decisions/0002-memory-at-scale.md, the entity index); types are few, so each is
 * copied out once and shared.
 */
function typeIri(slice: string): string {
  let t = typeIris.get(slice);
  if (t === undefined) {
    t = Buffer.from(slice, "utf8").toString("utf8");
    typeIris.set(t, t);
  }
  return t;
}
