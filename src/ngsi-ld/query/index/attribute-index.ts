import type { CompiledContext } from "../../../rdf/contexts/compiled-context";
import type { ChangeEvent } from "../../../events/change-event";
import type { GraphStore } from "../../../store/graph-store";
import { scanGraphs, type GraphScanConsumer } from "../../../store/indexes/graph-scan";
import { RefTable } from "../../../store/indexes/index-image";
import { writtenEntity } from "../../entities/written-entity";
import { attributeNames, Entity, instancesOf, typesOf } from "../../model/entity";
import type { AttributeInstance } from "../../model/normalize-attribute";
import { instanceTargets } from "../q/q-evaluate";
import { scopesOf } from "../scope-query";

/**
 * What the index holds about one attribute of one entity: the target values of each instance, as the
 * q evaluator computes them (ETSI GS CIM 009 v1.8 §4.9), and whether those values answer a top-level
 * query term exactly (scalar Property values, urn: Relationship objects, LanguageProperty strings) or
 * only say "the attribute exists" (structured values, other kinds). One exact scalar is stored bare,
 * which saves three objects per attribute of most entities.
 */
export type Slot = Scalar | { exact: boolean; instances: unknown[][] };

/** The value of the commonest slot: one instance with one scalar value, exact (kept without wrappers). */
type Scalar = string | number | boolean;

/** What the index holds about one entity. */
interface EntityEntry {
  types: string[];
  /** The per-attribute maps this entity has a slot in. */
  attrs: Map<string, Slot>[];
  scopes: string[];
}

/** The slot of attributes whose values the index does not keep (they only say "exists"). */
const INEXACT: Slot = Object.freeze({ exact: false, instances: [] });

/**
 * A copy of `s` that holds no reference to a larger string: values and ids decoded from a graph may be
 * V8 slices of the whole N-Triples text, which would keep every entity's text alive in the index.
 */
function own(s: string): string {
  return s.length < 13 ? s : (" " + s).slice(1);
}

/**
 * One tenant of the attribute index in an image (store/indexes/index-image.ts): entities by their number in
 * the entity index's image, each one's types as a reference into distinct lists, the scopes of those that
 * have some, and per attribute the numbers of its entities with their slots (`null` for the inexact slot).
 */
export interface AttributeIndexImage {
  entities: Int32Array;
  typeLists: string[][];
  typeRefs: Int32Array;
  scopes: [number, string[]][];
  attrs: { iri: string; entities: Int32Array; slots: (Slot | null)[] }[];
}

/** One tenant's part of the index. */
export class TenantAttributeIndex {
  /** Expanded type IRI -> ids of its entities. */
  readonly types = new Map<string, Set<string>>();
  /** Expanded attribute IRI -> entity id -> slot. */
  readonly attrs = new Map<string, Map<string, Slot>>();
  /** Entity id -> its types, attributes and scopes. */
  readonly entities = new Map<string, EntityEntry>();
  /** One string per type IRI. */
  private readonly typeNames = new Map<string, string>();

  /** Scopes of entity `id` (empty when it has none). */
  scopes(id: string): string[] {
    return this.entities.get(id)?.scopes ?? [];
  }

  /**
   * Replaces what the index knows of entity `graph` (its graph name, the id as stored) by `e`, expanded
   * with `ctx` (the decoded `e.id` may be compacted, e.g. `ngsi-ld:default-context/e1`).
   */
  put(graph: string, e: Entity, ctx: CompiledContext): void {
    const id = own(graph);
    this.remove(id);
    const entry: EntityEntry = {
      types: typesOf(e).map((t) => this.typeName(ctx.expandTerm(t))),
      attrs: [],
      scopes: scopesOf(e.scope).map(own),
    };
    for (const t of entry.types) setOf(this.types, t).add(id);
    for (const name of attributeNames(e)) {
      const iri = ctx.expandTerm(name);
      let m = this.attrs.get(iri);
      if (!m) this.attrs.set(own(iri), (m = new Map()));
      entry.attrs.push(m);
      m.set(id, slotOf(instancesOf(e, name)));
    }
    this.entities.set(id, entry);
  }

  private typeName(iri: string): string {
    let t = this.typeNames.get(iri);
    if (t === undefined) this.typeNames.set(iri, (t = own(iri)));
    return t;
  }

  /**
   * This tenant as an image part; `numbers` gives each id's number in the entity index's image (an id it
   * lacks: the indexes disagree, and there is no image).
   */
  image(numbers: ReadonlyMap<string, number>): AttributeIndexImage | undefined {
    const entities = new Int32Array(this.entities.size);
    const typeRefs = new Int32Array(this.entities.size);
    const lists = new RefTable<string[]>();
    const scopes: [number, string[]][] = [];
    // forEach, not for-of over entries: no [key, value] array per entry (a million entities, ten attributes)
    let i = 0;
    let agree = true;
    this.entities.forEach((e, id) => {
      const n = numbers.get(id);
      if (n === undefined) agree = false;
      else {
        entities[i] = n;
        typeRefs[i++] = lists.ref(e.types.join("\n"), e.types);
        if (e.scopes.length) scopes.push([n, e.scopes]);
      }
    });
    const attrs: AttributeIndexImage["attrs"] = [];
    this.attrs.forEach((m, iri) => {
      const nums = new Int32Array(m.size);
      const slots: (Slot | null)[] = []; // grown by push: packed, which v8.serialize writes densely
      let k = 0;
      m.forEach((slot, id) => {
        const n = numbers.get(id);
        if (n === undefined) agree = false;
        nums[k++] = n ?? -1;
        slots.push(slot === INEXACT ? null : slot);
      });
      attrs.push({ iri, entities: nums, slots });
    });
    return agree ? { entities, typeLists: lists.values, typeRefs, scopes, attrs } : undefined;
  }

  /** Fills this (empty) tenant from an image part; `ids` are the entity index image's ids. */
  loadImage(p: AttributeIndexImage, ids: string[]): void {
    const lists = p.typeLists.map((l) => l.map((t) => this.typeName(t)));
    const entries = new Map<number, EntityEntry>();
    p.entities.forEach((n, i) => {
      const entry: EntityEntry = { types: lists[p.typeRefs[i]].slice(), attrs: [], scopes: [] };
      entries.set(n, entry);
      this.entities.set(ids[n], entry);
      for (const t of entry.types) setOf(this.types, t).add(ids[n]);
    });
    for (const [n, scopes] of p.scopes) {
      const entry = entries.get(n);
      if (entry) entry.scopes = scopes;
    }
    for (const a of p.attrs) {
      const m = new Map<string, Slot>();
      this.attrs.set(a.iri, m);
      a.entities.forEach((n, k) => {
        m.set(ids[n], a.slots[k] ?? INEXACT);
        entries.get(n)?.attrs.push(m);
      });
    }
  }

  /** Forgets entity `id`. */
  remove(id: string): void {
    const old = this.entities.get(id);
    if (!old) return;
    for (const t of old.types) this.types.get(t)?.delete(id);
    for (const m of old.attrs) m.delete(id);
    this.entities.delete(id);
  }
}

function setOf(m: Map<string, Set<string>>, k: string): Set<string> {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  return s;
}

function slotOf(instances: AttributeInstance[]): Slot {
  if (instances.length === 1) {
    // the commonest attribute, one instance with one scalar: no arrays around the one value
    const v = instanceTargets(instances[0]);
    if (!isExact(instances[0], v)) return INEXACT;
    if (v.length === 1) return (typeof v[0] === "string" ? own(v[0]) : v[0]) as Scalar;
  }
  const values: unknown[][] = [];
  for (const i of instances) {
    const v = instanceTargets(i);
    if (!isExact(i, v)) return INEXACT;
    values.push(v.map((x) => (typeof x === "string" ? own(x) : x)));
  }
  if (values.length === 1 && values[0].length === 1) return values[0][0] as Scalar;
  return { exact: true, instances: values };
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
 * The attribute-value index for `q`, `attrs`, type expressions and `scopeQ` (docs/design.md "Indexes beside
 * the store, derived from it"): per tenant, the entities of each type, and per
 * attribute IRI the values of every entity, derived through the codec from the stored graphs. Rebuilt
 * from the graph at start and kept current by the change feed; a cache that the q evaluator checks.
 */
export class AttributeIndex implements GraphScanConsumer {
  private readonly tenants = new Map<string, TenantAttributeIndex>();
  private building: Promise<void> = Promise.resolve();
  private filled = true;

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

  /**
   * Rebuilds everything from the store on its own: reads every graph of `ids` per tenant, in chunks
   * (scanGraphs). Writes that commit meanwhile are applied as they come and win over what the rebuild
   * read. {@link ready} resolves when it is done.
   */
  rebuild(store: GraphStore, idsOf: (tenant: string) => Iterable<string>): Promise<void> {
    return this.fillingBy(scanGraphs(store, idsOf, [this]));
  }

  /**
   * Marks the index as being filled by `scan` (a {@link scanGraphs} that includes it, run by the
   * caller together with other indexes): {@link ready} waits for it. Returns a promise of its end.
   */
  fillingBy(scan: Promise<unknown>): Promise<void> {
    this.filled = false;
    this.building = scan.then(() => {
      this.filled = true;
    });
    return this.building;
  }

  /** True once the index answers for the whole graph (false while a rebuild runs). */
  isFilled(): boolean {
    return this.filled;
  }

  /** Resolves once the index answers for the whole graph (immediately unless a rebuild runs). */
  ready(): Promise<void> {
    return this.building;
  }

  /**
   * Every tenant as an image part ({@link TenantAttributeIndex.image}), `numbersOf` giving a tenant's
   * numbers in the entity index's image; undefined if one cannot be.
   */
  imageParts(
    numbersOf: (tenant: string) => ReadonlyMap<string, number> | undefined,
  ): [string, AttributeIndexImage][] | undefined {
    const out: [string, AttributeIndexImage][] = [];
    for (const [name, t] of this.tenants) {
      const part = t.image(numbersOf(name) ?? new Map());
      if (!part) return undefined;
      out.push([name, part]);
    }
    return out;
  }

  /** Replaces the index by the one of an image; `idsOf` gives a tenant's ids in the entity index's image. */
  loadImage(parts: [string, AttributeIndexImage][], idsOf: (tenant: string) => string[]): void {
    this.tenants.clear();
    for (const [name, part] of parts) this.tenant(name).loadImage(part, idsOf(name));
  }

  /** {@link GraphScanConsumer}: starts from empty. */
  beginScan(): void {
    this.tenants.clear();
  }

  /** {@link GraphScanConsumer}: one stored entity graph, decoded through the codec. */
  scanGraph(tenant: string, id: string, triples: string): void {
    this.tenant(tenant).put(id, this.decode(triples, id), this.ctx);
  }

  /** {@link GraphScanConsumer}: nothing to finish. */
  endScan(): void {}

  /**
   * Applies one committed write (the change-feed listener): an entity the repository wrote is read as
   * it was committed (entities/written-entity.ts), any other graph decoded through the codec as the scan
   * does; both give the same entry (test/integration/ngsi-ld/query-model.test.ts).
   */
  apply(event: ChangeEvent): void {
    const t = this.tenant(event.tenant);
    for (const w of event.writes) {
      if (w.triples === null) {
        t.remove(w.graph);
        continue;
      }
      const written = writtenEntity(event, w.graph);
      if (written) t.put(w.graph, written.entity, written.ctx);
      else t.put(w.graph, this.decode(w.triples, w.graph), this.ctx);
    }
  }
}
