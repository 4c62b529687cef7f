import { normalizeEntity } from "../ngsi-ld/model/normalize-entity";
import { canonicalizeEntity } from "../ngsi-ld/model/canonical-names";
import type { Entity } from "../ngsi-ld/model/entity";
import type { EntityService } from "../ngsi-ld/entities/entity-service";
import { queryEntities, type QuerySources } from "../ngsi-ld/query/entity-query";
import type { EntityFilter } from "../ngsi-ld/query/query-filter";
import type { CompiledContext } from "../rdf/contexts/compiled-context";
import { NGSI_LD_LOCATION } from "../rdf/vocab";
import { DEFAULT_TENANT } from "../store/graph-store";
import { AppError } from "../errors";
import { PersonalData } from "./personal-data";
import { TRAFFIC_NS } from "./vocabulary";

/** A read of entities by type, optionally near a point. */
export interface EntitySelection {
  type: string;
  /** Within `metres` of (lon, lat). */
  near?: { lon: number; lat: number; metres: number };
  limit?: number;
}

/** What {@link GraphAccess} reads and writes through. */
export interface GraphAccessDeps {
  /** Writes go through the NGSI-LD entity service. */
  entities: EntityService;
  /** Reads go through the NGSI-LD query engine's indexes. */
  sources: QuerySources;
  /** The compiled traffic context: documents are read and written in its terms. */
  context: CompiledContext;
  /** The most entities one read answers. */
  maxLimit: number;
  /** Where personal attributes are kept (personal-data.ts); in memory only when absent. */
  personal?: PersonalData;
}

/**
 * The domain's window on the graph: entity documents written through the NGSI-LD entity service (the
 * same validation, journal, change feed, SPARQL view and subscriptions as any NGSI-LD client's write)
 * and read back compacted with the traffic context, so attribute names are the context's short terms.
 * The personal attributes of a new entity (personal-data.ts) are written apart from it and put back on
 * this window's reads only: the domain sees whole entities, the NGSI-LD and SPARQL faces never see them.
 */
export class GraphAccess {
  private readonly entities: EntityService;
  private readonly sources: QuerySources;
  /** The compiled traffic context (TRAFFIC_ENTITY_CONTEXT). */
  readonly ctx: CompiledContext;
  /** The tenant the domain lives in: the default one. */
  readonly tenant = DEFAULT_TENANT;
  private readonly maxLimit: number;
  private readonly personal: PersonalData;

  constructor(deps: GraphAccessDeps) {
    this.entities = deps.entities;
    this.sources = deps.sources;
    this.ctx = deps.context;
    this.maxLimit = deps.maxLimit;
    this.personal = deps.personal ?? new PersonalData();
  }

  /**
   * Creates an entity from a normalized document (its @context is this access's context), its personal
   * attributes kept apart; 409 if taken.
   */
  async create(doc: Record<string, unknown>): Promise<void> {
    const id = String(doc.id);
    // personal data is kept only for entities this window made: an id that has some is taken
    if (this.personal.has(id)) throw new AppError("AlreadyExists", `Entity ${id} already exists`, { id });
    const shared = await this.personal.keepApart(doc);
    try {
      await this.entities.create(this.tenant, this.entityOf(shared), this.ctx);
    } catch (e) {
      if (shared !== doc) await this.personal.forget(id);
      throw e;
    }
  }

  /** Merges attributes into an entity (§5.6.17 merge): present ones replaced, new ones added. */
  async merge(id: string, attrs: Record<string, unknown>): Promise<void> {
    const patch = this.entityOf({ id, type: "Thing", ...attrs });
    delete (patch as Partial<Entity>).type;
    await this.entities.merge(this.tenant, id, patch as Entity, this.ctx);
  }

  /** Deletes an entity and its personal data. */
  async delete(id: string): Promise<void> {
    await this.entities.delete(this.tenant, id, this.ctx);
    await this.personal.forget(id);
  }

  /** One entity (with its personal attributes), or undefined. */
  async read(id: string): Promise<Entity | undefined> {
    const [e] = await this.sources.views.read(this.tenant, [id], this.ctx);
    return e && this.personal.withPersonal(e);
  }

  /** Entities of one type (traffic-context term, with their personal attributes), optionally near a point, at most `limit`. */
  async select(sel: EntitySelection): Promise<Entity[]> {
    const typeIri = this.ctx.expandTerm(sel.type);
    const filter: EntityFilter = { selectors: [{ types: { kind: "leaf", leaf: typeIri } }] };
    if (sel.near)
      filter.geo = {
        georel: { name: "near", maxDistance: sel.near.metres },
        geometry: { type: "Point", coordinates: [sel.near.lon, sel.near.lat] },
        geoproperty: "location",
        geopropertyIri: NGSI_LD_LOCATION,
      };
    const limit = Math.min(sel.limit ?? this.maxLimit, this.maxLimit);
    const page = await queryEntities(
      this.sources,
      this.tenant,
      { ...filter, limit, offset: 0, count: false },
      this.ctx,
    );
    return page.entities.map((e) => this.personal.withPersonal(e));
  }

  /** True when the type term names `term` of the traffic vocabulary, in any context the writer used. */
  static isTrafficType(types: readonly string[], ctx: CompiledContext, term: string): boolean {
    return types.some((t) => ctx.expandTerm(t) === TRAFFIC_NS + term);
  }

  private entityOf(doc: Record<string, unknown>): Entity {
    const { "@context": _ignored, ...rest } = doc;
    return canonicalizeEntity(normalizeEntity(rest, "entity"), this.ctx);
  }
}

/** The value of Property `name` of an entity (first instance), or undefined. */
export function valueOf(e: Entity, name: string): unknown {
  const a = e[name];
  const i = (Array.isArray(a) ? a[0] : a) as { value?: unknown; object?: unknown } | undefined;
  if (!i || typeof i !== "object") return undefined;
  const v = i.value ?? i.object;
  if (v && typeof v === "object" && "@value" in (v as object)) return (v as { "@value": unknown })["@value"];
  return v;
}

/** The objects of Relationship `name` (one or many, every instance). */
export function objectsOf(e: Entity, name: string): string[] {
  const a = e[name];
  const out: string[] = [];
  for (const i of (Array.isArray(a) ? a : a ? [a] : []) as { object?: unknown }[]) {
    if (typeof i.object === "string") out.push(i.object);
    else if (Array.isArray(i.object)) for (const o of i.object) if (typeof o === "string") out.push(o);
  }
  return out;
}

/** The point of a GeoJSON Point value as {lat, lon}, or undefined (another geometry, or no numbers). */
export function pointIn(geometry: unknown): { lat: number; lon: number } | undefined {
  const g = geometry as { type?: unknown; coordinates?: unknown } | null | undefined;
  if (g?.type !== "Point" || !Array.isArray(g.coordinates)) return undefined;
  const [lon, lat] = g.coordinates as unknown[];
  return typeof lon === "number" && typeof lat === "number" ? { lat, lon } : undefined;
}

/** The Point of GeoProperty `location` as {lat, lon}, or undefined. */
export function pointOf(e: Entity): { lat: number; lon: number } | undefined {
  return pointIn(valueOf(e, "location"));
}
