import RBush from "rbush";
import { NGSI_LD_GEOPROPERTY } from "../../../rdf/vocab";
import type { ChangeEvent } from "../../../events/change-event";
import type { GraphStore } from "../../../store/graph-store";
import { EntityIndex } from "../../../store/indexes/entity-index";
import { scanGraphs, type GraphScanConsumer } from "../../../store/indexes/graph-scan";
import { RefTable } from "../../../store/indexes/index-image";
import { attributeFacts, type AttributeFact } from "../../codec/attribute-facts";
import { writtenEntity } from "../../entities/written-entity";
import { geometryError } from "../../model/geojson";
import { geometryBBox, searchBox, type BBox } from "./geo-bbox";
import { matchesGeoQuery } from "./geo-predicates";
import type { GeoQuery, Geometry } from "./geo-query";

/** One GeoProperty instance of one entity in the R-tree. */
class Item implements BBox {
  constructor(
    readonly minX: number,
    readonly minY: number,
    readonly maxX: number,
    readonly maxY: number,
    readonly id: string,
    /** The expanded GeoProperty IRI (one shared string per IRI). */
    readonly attribute: string,
    /** The GeoJSON value; undefined for a 2-D Point, whose box is its position (saves its objects). */
    private readonly shape: Geometry | undefined,
  ) {}

  /** The GeoJSON value of the instance. */
  get geometry(): Geometry {
    return this.shape ?? ({ type: "Point", coordinates: [this.minX, this.minY] } as Geometry);
  }

  /** True unless the instance is a 2-D Point kept as its box alone. */
  hasShape(): boolean {
    return this.shape !== undefined;
  }
}

/**
 * One tenant of the geo index in an image (store/indexes/index-image.ts): per item, the number of its
 * entity in the entity index's image, its GeoProperty (a reference into `attributes`) and its box; the
 * GeoJSON of the items that are not 2-D points.
 */
export interface GeoIndexImage {
  attributes: string[];
  entities: Int32Array;
  attributeRefs: Int32Array;
  boxes: Float64Array;
  shapes: [number, Geometry][];
}

/** The GeoProperties of one tenant: an R-tree per expanded GeoProperty IRI, and each entity's items. */
interface TenantGeo {
  trees: Map<string, RBush<Item>>;
  byEntity: Map<string, Item[]>;
}

/**
 * The geo index (docs/design.md "Indexes beside the store, derived from it"; ETSI GS CIM 009 v1.8 §4.10):
 * per tenant and GeoProperty, the bounding box and the GeoJSON value of every entity's geometry in an
 * R-tree (rbush). Built from the graph at start (a {@link GraphScanConsumer}), kept current by the change feed
 * ({@link apply}); a cache that can always be rebuilt from the store. Geometries are read through
 * codec/attribute-facts.ts, the one place that knows how a GeoProperty sits in the graph.
 */
export class GeoIndex implements GraphScanConsumer {
  private readonly tenants = new Map<string, TenantGeo>();
  /** One string per GeoProperty IRI (facts parsed from each graph bring fresh copies). */
  private readonly names = new Map<string, string>();

  /** During a scan: the items read per GeoProperty, bulk-loaded into the trees at its end. */
  private loads: Map<string, Map<string, Item[]>> | undefined;

  /**
   * Rebuilds the index from the store on its own: one pass over the graphs of the entities `ids` lists
   * (the service fills it together with the attribute index instead: see app.ts and scanGraphs).
   */
  async rebuild(store: GraphStore, ids?: EntityIndex): Promise<void> {
    let all = ids;
    if (!all) await (all = new EntityIndex()).rebuild(store);
    await scanGraphs(store, (tenant) => all.ids(tenant), [this]);
  }

  /**
   * Every tenant as an image part; `numbersOf` gives a tenant's numbers in the entity index's image (an id
   * it lacks: the indexes disagree, and there is no image).
   */
  imageParts(
    numbersOf: (tenant: string) => ReadonlyMap<string, number> | undefined,
  ): [string, GeoIndexImage][] | undefined {
    const out: [string, GeoIndexImage][] = [];
    for (const [tenant, t] of this.tenants) {
      const numbers = numbersOf(tenant) ?? new Map<string, number>();
      const items = [...t.byEntity.values()].flat();
      const attributes = new RefTable<string>();
      const part: GeoIndexImage = {
        attributes: attributes.values,
        entities: new Int32Array(items.length),
        attributeRefs: new Int32Array(items.length),
        boxes: new Float64Array(items.length * 4),
        shapes: [],
      };
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        const n = numbers.get(item.id);
        if (n === undefined) return undefined;
        part.entities[i] = n;
        part.attributeRefs[i] = attributes.ref(item.attribute, item.attribute);
        part.boxes.set([item.minX, item.minY, item.maxX, item.maxY], i * 4);
        if (item.hasShape()) part.shapes.push([i, item.geometry]);
      }
      out.push([tenant, part]);
    }
    return out;
  }

  /** Replaces the index by the one of an image; `idsOf` gives a tenant's ids in the entity index's image. */
  loadImage(parts: [string, GeoIndexImage][], idsOf: (tenant: string) => string[]): void {
    this.tenants.clear();
    for (const [tenant, p] of parts) {
      const t = this.tenant(tenant);
      const ids = idsOf(tenant);
      const shapes = new Map(p.shapes);
      const byAttr = new Map<string, Item[]>();
      const names = p.attributes.map((a) => this.name(a));
      for (let i = 0; i < p.entities.length; i++) {
        const b = p.boxes.subarray(i * 4, i * 4 + 4);
        const attribute = names[p.attributeRefs[i]];
        const item = new Item(b[0], b[1], b[2], b[3], ids[p.entities[i]], attribute, shapes.get(i));
        (byAttr.get(attribute) ?? byAttr.set(attribute, []).get(attribute)!).push(item);
        this.remember(t, item);
      }
      for (const [attribute, items] of byAttr) this.tree(t, attribute).load(items);
    }
  }

  /** {@link GraphScanConsumer}: starts from empty. */
  beginScan(): void {
    this.tenants.clear();
    this.loads = new Map();
  }

  /** {@link GraphScanConsumer}: the GeoProperties of one stored entity graph. */
  scanGraph(tenant: string, id: string, triples: string): void {
    const loads = this.loads;
    if (!loads) return;
    const t = this.tenant(tenant);
    let byAttr = loads.get(tenant);
    if (!byAttr) loads.set(tenant, (byAttr = new Map()));
    if (!triples.includes(NGSI_LD_GEOPROPERTY)) return;
    for (const item of this.itemsOf(id, attributeFacts(triples, id))) {
      (byAttr.get(item.attribute) ?? byAttr.set(item.attribute, []).get(item.attribute)!).push(item);
      this.remember(t, item);
    }
  }

  /**
   * {@link GraphScanConsumer}: bulk-loads the trees. Items of entities the change feed replaced during
   * the scan are no longer in `byEntity` and are left out.
   */
  endScan(): void {
    const loads = this.loads;
    this.loads = undefined;
    for (const [tenant, byAttr] of loads ?? []) {
      const t = this.tenant(tenant);
      for (const [attribute, items] of byAttr) {
        const live = items.filter((i) => t.byEntity.get(i.id)?.includes(i));
        this.tree(t, attribute).load(live);
      }
    }
  }

  /**
   * Applies one committed write (the change-feed listener): each written entity's items are replaced,
   * read from the entity the repository wrote when it hands it over (entities/written-entity.ts).
   */
  apply(event: ChangeEvent): void {
    const t = this.tenant(event.tenant);
    for (const w of event.writes) {
      for (const item of t.byEntity.get(w.graph) ?? []) t.trees.get(item.attribute)?.remove(item);
      t.byEntity.delete(w.graph);
      if (w.triples === null) continue;
      const facts = writtenEntity(event, w.graph)?.attributeFacts() ?? attributeFacts(w.triples, w.graph);
      for (const item of this.itemsOf(w.graph, facts)) {
        this.tree(t, item.attribute).insert(item);
        this.remember(t, item);
      }
    }
  }

  /**
   * A superset of the ids of the entities of `tenant` whose `q.geopropertyIri` can match `q`, found by
   * bounding boxes (see searchBox), each id once; undefined when boxes cannot narrow the search
   * (`disjoint`, `near` with only `minDistance`): then every entity with the GeoProperty is a candidate.
   */
  candidates(tenant: string, q: GeoQuery): string[] | undefined {
    const box = searchBox(q);
    if (box === undefined) return undefined;
    return unique(this.search(tenant, q.geopropertyIri, box));
  }

  /**
   * The exact answer: ids of the entities of `tenant` with at least one instance of the GeoProperty
   * that matches `q` (matchesGeoQuery on the indexed geometry), each once, without reading the store.
   * Entities without the GeoProperty never match (§4.10).
   */
  matches(tenant: string, q: GeoQuery): string[] {
    const box = searchBox(q);
    const tree = this.tenants.get(tenant)?.trees.get(q.geopropertyIri);
    const items = box === undefined ? (tree?.all() ?? []) : this.search(tenant, q.geopropertyIri, box);
    return unique(items.filter((i) => matchesGeoQuery(i.geometry, q)));
  }

  /** Number of indexed GeoProperty instances of `tenant` (all GeoProperties). */
  size(tenant: string): number {
    let n = 0;
    for (const items of this.tenants.get(tenant)?.byEntity.values() ?? []) n += items.length;
    return n;
  }

  private search(tenant: string, attribute: string, box: BBox): Item[] {
    return this.tenants.get(tenant)?.trees.get(attribute)?.search(box) ?? [];
  }

  private itemsOf(id: string, facts: AttributeFact[]): Item[] {
    const out: Item[] = [];
    for (const f of facts) {
      if (f.geometry === undefined || geometryError(f.geometry) !== undefined) continue;
      const geometry = f.geometry as unknown as Geometry;
      const b = geometryBBox(geometry);
      if (b === undefined) continue;
      const point = geometry.type === "Point" && geometry.coordinates.length === 2;
      out.push(
        new Item(b.minX, b.minY, b.maxX, b.maxY, id, this.name(f.attribute), point ? undefined : geometry),
      );
    }
    return out;
  }

  private name(iri: string): string {
    let n = this.names.get(iri);
    if (n === undefined) this.names.set(iri, (n = iri));
    return n;
  }

  private remember(t: TenantGeo, item: Item): void {
    const list = t.byEntity.get(item.id);
    if (list) list.push(item);
    else t.byEntity.set(item.id, [item]);
  }

  private tree(t: TenantGeo, attribute: string): RBush<Item> {
    let tree = t.trees.get(attribute);
    if (!tree) t.trees.set(attribute, (tree = new RBush<Item>()));
    return tree;
  }

  private tenant(name: string): TenantGeo {
    let t = this.tenants.get(name);
    if (!t) this.tenants.set(name, (t = { trees: new Map(), byEntity: new Map() }));
    return t;
  }
}

function unique(items: Item[]): string[] {
  if (items.length < 2) return items.map((i) => i.id);
  return [...new Set(items.map((i) => i.id))];
}
