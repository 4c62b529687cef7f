import type { CompiledContext } from "../../../rdf/compiled-context";
import type { CommitEvent, GraphStore } from "../../../store/graph-store";
import { attributeNames, Entity, instancesOf, typesOf } from "../../model/entity";
import type { AttributeInstance } from "../../model/normalize-attribute";
import { instanceTargets } from "../q/q-evaluate";
import { scopesOf } from "../scope-query";

/**
 * What the index holds about one attribute of one entity: the target values of each instance, as the
 * q evaluator computes them (ETSI GS CIM 009 v1.8 §4.9), and whether those values answer a top-level
 * query term exactly (scalar Property values, urn: Relationship objects, LanguageProperty strings) or
 * only say "the attribute exists" (structured values, other kinds).
 */
export interface Slot {
  exact: boolean;
  instances: unknown[][];
}

/** What the index holds about one entity. */
interface EntityEntry {
  types: string[];
  attrs: string[];
  scopes: string[];
}

/** One tenant's part of the index. */
export class TenantAttributeIndex {
  /** Expanded type IRI -> ids of its entities. */
  readonly types = new Map<string, Set<string>>();
  /** Expanded attribute IRI -> entity id -> slot. */
  readonly attrs = new Map<string, Map<string, Slot>>();
  /** Entity id -> its types, attributes and scopes. */
  readonly entities = new Map<string, EntityEntry>();

  /** Scopes of entity `id` (empty when it has none). */
  scopes(id: string): string[] {
    return this.entities.get(id)?.scopes ?? [];
  }

  /** Replaces what the index knows of `e` (expanded with `ctx`). */
  put(e: Entity, ctx: CompiledContext): void {
    this.remove(e.id);
    const entry: EntityEntry = {
      types: typesOf(e).map((t) => ctx.expandTerm(t)),
      attrs: [],
      scopes: scopesOf(e.scope),
    };
    for (const t of entry.types) setOf(this.types, t).add(e.id);
    for (const name of attributeNames(e)) {
      const iri = ctx.expandTerm(name);
      entry.attrs.push(iri);
      let m = this.attrs.get(iri);
      if (!m) this.attrs.set(iri, (m = new Map()));
      m.set(e.id, slotOf(instancesOf(e, name)));
    }
    this.entities.set(e.id, entry);
  }

  /** Forgets entity `id`. */
  remove(id: string): void {
    const old = this.entities.get(id);
    if (!old) return;
    for (const t of old.types) this.types.get(t)?.delete(id);
    for (const a of old.attrs) this.attrs.get(a)?.delete(id);
    this.entities.delete(id);
  }
}

function setOf(m: Map<string, Set<string>>, k: string): Set<string> {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  return s;
}

function slotOf(instances: AttributeInstance[]): Slot {
  let exact = true;
  const values = instances.map((i) => {
    const v = instanceTargets(i);
    if (!isExact(i, v)) exact = false;
    return v;
  });
  return { exact, instances: values };
}

function isExact(i: AttributeInstance, values: unknown[]): boolean {
  switch (i.type) {
    case "Property":
    case "LanguageProperty":
      return values.every((v) => typeof v !== "object");
    case "Relationship":
      return values.every((v) => typeof v === "string" && v.startsWith("urn:"));
    default:
      return false;
  }
}

/** Decodes one stored entity graph through the codec, compacted with the index's context. */
export type GraphDecoder = (triples: string, id: string) => Entity;

/**
 * The attribute-value index for `q`, `attrs`, type expressions and `scopeQ` (DESIGN.md "Indexes beside
 * the store, derived from it"; issue 3 item 4): per tenant, the entities of each type, and per
 * attribute IRI the values of every entity, derived through the codec from the stored graphs. Rebuilt
 * from the graph at start and kept current by the change feed; a cache that the q evaluator checks.
 */
export class AttributeIndex {
  private readonly tenants = new Map<string, TenantAttributeIndex>();

  /**
   * @param decode the codec's triples -> entity, compacted with `ctx`
   * @param ctx the context attribute and type names are expanded with (the core context)
   */
  constructor(
    private readonly decode: GraphDecoder,
    private readonly ctx: CompiledContext,
  ) {}

  /** One tenant's index (created empty on first use). */
  tenant(name: string): TenantAttributeIndex {
    let t = this.tenants.get(name);
    if (!t) this.tenants.set(name, (t = new TenantAttributeIndex()));
    return t;
  }

  /** Rebuilds everything from the store: reads every graph of `ids` per tenant, in chunks. */
  async rebuild(store: GraphStore, idsOf: (tenant: string) => Iterable<string>): Promise<void> {
    this.tenants.clear();
    for (const tenant of await store.tenants()) {
      const ids = [...idsOf(tenant)];
      const t = this.tenant(tenant);
      for (let i = 0; i < ids.length; i += 2000) {
        const chunk = ids.slice(i, i + 2000);
        const graphs = await store.readGraphs(tenant, chunk);
        chunk.forEach((id, k) => {
          const g = graphs[k];
          if (g) t.put(this.decode(g, id), this.ctx);
        });
      }
    }
  }

  /** Applies one committed write (the change-feed listener). */
  apply(event: CommitEvent): void {
    const t = this.tenant(event.tenant);
    for (const w of event.writes) {
      if (w.triples === null) t.remove(w.graph);
      else t.put(this.decode(w.triples, w.graph), this.ctx);
    }
  }
}
