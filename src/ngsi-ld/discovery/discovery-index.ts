import type { ChangeEvent } from "../../events/change-event";
import type { GraphStore } from "../../store/graph-store";
import { type EntityIndex, typesInTriples } from "../../store/indexes/entity-index";
import { scanGraphs, type GraphScanConsumer } from "../../store/indexes/graph-scan";
import { attributeFacts, type AttributeFact } from "../codec/attribute-facts";
import { writtenEntity } from "../entities/written-entity";

/** Counts by key that forget a key when its count drops to 0. */
type Counts = Map<string, number>;

/** What one entity contributes: its types and, per attribute, instance counts per kind. */
interface EntityRecord {
  types: string[];
  attrs: Map<string, Counts>;
}

/** Per entity type: number of entities and, per attribute, instance counts per kind. */
export interface TypeStats {
  entities: number;
  attrs: Map<string, Counts>;
}

/** Per attribute: instance counts per kind and number of entities per entity type. */
export interface AttributeStats {
  instances: number;
  kinds: Counts;
  types: Counts;
}

interface TenantStats {
  entities: Map<string, EntityRecord>;
  types: Map<string, TypeStats>;
  attrs: Map<string, AttributeStats>;
}

/**
 * The discovery index (ETSI GS CIM 009 v1.8 §5.7.5 to §5.7.10; docs/design.md "Indexes beside the store,
 * derived from it"): per tenant, entity type -> entity count and attribute names with their kinds,
 * attribute -> instance count, kinds and entity types, all as expanded IRIs. Built from the graph on
 * the first discovery request ({@link ready}; discovery is rare, so start-up does not pay for it),
 * then kept current by the change feed. Commits that arrive while it builds are replayed after the
 * build; replaying is idempotent because each commit replaces whole entities.
 */
export class DiscoveryIndex implements GraphScanConsumer {
  private readonly tenants = new Map<string, TenantStats>();
  private building: Promise<void> | undefined;
  private buffer: ChangeEvent[] | undefined;
  private built = false;
  /** Entity records by shape (see {@link shape}). */
  private readonly shapes = new Map<string, EntityRecord>();

  constructor(
    private readonly store: GraphStore,
    private readonly entities: EntityIndex,
  ) {}

  /** Resolves once the index is built (the first call builds it). */
  ready(): Promise<void> {
    this.building ??= this.build().catch((e: unknown) => {
      this.building = undefined;
      this.buffer = undefined;
      throw e;
    });
    return this.building;
  }

  /** The change-feed listener (a no-op until the first {@link ready}). */
  apply(event: ChangeEvent): void {
    if (this.built) this.applyEvent(event);
    else this.buffer?.push(event);
  }

  /** Entity types of `tenant` with their statistics. */
  types(tenant: string): ReadonlyMap<string, TypeStats> {
    return this.tenants.get(tenant)?.types ?? new Map();
  }

  /** Attributes of `tenant` with their statistics. */
  attributes(tenant: string): ReadonlyMap<string, AttributeStats> {
    return this.tenants.get(tenant)?.attrs ?? new Map();
  }

  /** {@link GraphScanConsumer}: starts from empty. */
  beginScan(): void {
    this.tenants.clear();
  }

  /** {@link GraphScanConsumer}: one stored entity graph. */
  scanGraph(tenant: string, id: string, triples: string): void {
    this.put(tenant, id, typesInTriples(id, triples), attributeFacts(triples, id));
  }

  /** {@link GraphScanConsumer}: nothing to finish. */
  endScan(): void {}

  /** One pass over every entity graph (scanGraphs; 143 s at 100k entities by the former SPARQL SELECT). */
  private async build(): Promise<void> {
    this.buffer = [];
    await scanGraphs(this.store, (t) => this.entities.ids(t), [this]);
    this.built = true;
    const pending = this.buffer;
    this.buffer = undefined;
    for (const e of pending) this.applyEvent(e);
  }

  /** One commit: each written entity read as the repository wrote it (entities/written-entity.ts) or from its graph. */
  private applyEvent(event: ChangeEvent): void {
    for (const w of event.writes) {
      if (w.triples === null) {
        this.put(event.tenant, w.graph, undefined, []);
        continue;
      }
      const written = writtenEntity(event, w.graph);
      if (written) this.put(event.tenant, w.graph, written.types(), written.attributeFacts());
      else
        this.put(
          event.tenant,
          w.graph,
          typesInTriples(w.graph, w.triples),
          attributeFacts(w.triples, w.graph),
        );
    }
  }

  /** Replaces entity `id`'s contribution (types undefined = the entity is gone). */
  private put(tenant: string, id: string, types: string[] | undefined, facts: AttributeFact[]): void {
    const t = this.tenant(tenant);
    const old = t.entities.get(id);
    if (old) this.count(t, old, -1);
    if (types === undefined) {
      t.entities.delete(id);
      return;
    }
    const rec = this.shape(types, facts);
    t.entities.set(id, rec);
    this.count(t, rec, 1);
  }

  /**
   * The shared record of an entity with these types and attribute instances: most entities of a type
   * have the same shape, so each entity holds a reference, not its own maps (records are never changed).
   */
  private shape(types: string[], facts: AttributeFact[]): EntityRecord {
    let key = types.join(" ");
    for (const f of facts) key += "\u0000" + f.attribute + " " + f.kind;
    let rec = this.shapes.get(key);
    if (rec === undefined) {
      const attrs = new Map<string, Counts>();
      for (const f of facts) bump(attrs.get(f.attribute) ?? setNew(attrs, f.attribute), f.kind, 1);
      this.shapes.set(key, (rec = { types, attrs }));
    }
    return rec;
  }

  private count(t: TenantStats, rec: EntityRecord, sign: 1 | -1): void {
    for (const type of rec.types) {
      const ts = t.types.get(type) ?? t.types.set(type, { entities: 0, attrs: new Map() }).get(type)!;
      ts.entities += sign;
      for (const [attr, kinds] of rec.attrs) {
        const k = ts.attrs.get(attr) ?? setNew(ts.attrs, attr);
        for (const [kind, n] of kinds) bump(k, kind, sign * n);
        if (k.size === 0) ts.attrs.delete(attr);
      }
      if (ts.entities === 0) t.types.delete(type);
    }
    for (const [attr, kinds] of rec.attrs) {
      const as =
        t.attrs.get(attr) ??
        t.attrs.set(attr, { instances: 0, kinds: new Map(), types: new Map() }).get(attr)!;
      for (const [kind, n] of kinds) {
        as.instances += sign * n;
        bump(as.kinds, kind, sign * n);
      }
      for (const type of rec.types) bump(as.types, type, sign);
      if (as.instances === 0) t.attrs.delete(attr);
    }
  }

  private tenant(name: string): TenantStats {
    let t = this.tenants.get(name);
    if (!t) this.tenants.set(name, (t = { entities: new Map(), types: new Map(), attrs: new Map() }));
    return t;
  }
}

function bump(c: Counts, key: string, by: number): void {
  const n = (c.get(key) ?? 0) + by;
  if (n === 0) c.delete(key);
  else c.set(key, n);
}

function setNew(m: Map<string, Counts>, key: string): Counts {
  const c: Counts = new Map();
  m.set(key, c);
  return c;
}
