import type { Entity } from "../ngsi-ld/model/entity";
import { parseNTriples } from "../rdf/ntriples/parse";
import { ntIri, ntLine, ntLiteral } from "../rdf/ntriples/write";
import { RDF_JSON } from "../rdf/vocab";
import { DEFAULT_TENANT, INTERNAL_GRAPH_PREFIX, type GraphStore } from "../store/graph-store";

/** Prefix of the named graphs holding the personal data of an entity, apart from the entity. */
export const PERSONAL_GRAPH_PREFIX = `${INTERNAL_GRAPH_PREFIX}personal:`;
/** Predicate linking such a graph to its record (an rdf:JSON literal of the attributes). */
export const PERSONAL_STATE = `${INTERNAL_GRAPH_PREFIX}personalState`;

/**
 * The attributes that hold personal data, by entity type (traffic-context terms): a citizen's name and
 * contacts, and where an alert subscription delivers (e-mail, phone, webhook URL, push keys).
 */
export const PERSONAL_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  CitizenReport: ["reporter"],
  AlertSubscription: ["channelTargets"],
};

/** An entity's personal attributes, in the normalized form they were written in. */
type PersonalRecord = Record<string, unknown>;

const graphOf = (entityId: string) => `${PERSONAL_GRAPH_PREFIX}${encodeURIComponent(entityId)}`;

/**
 * Personal data kept out of the shared graph (docs/decisions/0014-personal-data-apart.md): the personal
 * attributes of the domain's entities live in one internal named graph per entity under
 * `urn:citygraph:internal:personal:` in the default tenant, journaled like entities (a write resolves once
 * on disk) and, like every internal graph, never listed by NGSI-LD, never in its temporal history or
 * notifications, never in the tenant's public store that SPARQL reads. The domain reads them back through GraphAccess;
 * the traffic faces show them to the owner, operators and admins (docs/auth.md). A copy in memory answers
 * the reads. Without a store (tests) they are kept in memory only.
 */
export class PersonalData {
  private readonly byEntity = new Map<string, PersonalRecord>();

  constructor(private readonly store?: Pick<GraphStore, "commit" | "select" | "tenants">) {}

  /** Reads every stored record (start-up). */
  async load(): Promise<void> {
    if (!this.store || !(await this.store.tenants()).includes(DEFAULT_TENANT)) return;
    const rows = await this.store.select(
      DEFAULT_TENANT,
      `SELECT ?g ?s WHERE { GRAPH ?g { ?g <${PERSONAL_STATE}> ?s } }`,
    );
    for (const r of rows) {
      const [t] = parseNTriples(`${r.g} <${PERSONAL_STATE}> ${r.s} .\n`);
      const { id, attrs } = JSON.parse(t.object.value) as { id: string; attrs: PersonalRecord };
      this.byEntity.set(id, attrs);
    }
  }

  /**
   * The document of a new entity without its personal attributes, which are stored apart first (so that a
   * reader of the entity, alerted by the change feed, finds them); the document itself if it has none.
   */
  async keepApart(doc: Record<string, unknown>): Promise<Record<string, unknown>> {
    const names = PERSONAL_ATTRIBUTES[String(doc.type)] ?? [];
    const attrs: PersonalRecord = {};
    const rest = { ...doc };
    for (const n of names) {
      if (rest[n] === undefined) continue;
      attrs[n] = rest[n];
      delete rest[n];
    }
    if (Object.keys(attrs).length === 0) return doc;
    await this.keep(String(doc.id), attrs);
    return rest;
  }

  /** Stores the personal attributes of an entity (replacing any kept before); resolves once durable. */
  async keep(id: string, attrs: Record<string, unknown>): Promise<void> {
    const g = graphOf(id);
    const triples = ntLine(ntIri(g), PERSONAL_STATE, ntLiteral(JSON.stringify({ id, attrs }), RDF_JSON));
    await this.store?.commit(DEFAULT_TENANT, [{ graph: g, triples }]);
    this.byEntity.set(id, attrs);
  }

  /** Adds personal attributes to those kept for an entity, replacing any of the same name; resolves once durable. */
  async add(id: string, attrs: Record<string, unknown>): Promise<void> {
    await this.keep(id, { ...this.byEntity.get(id), ...attrs });
  }

  /** The entity with its personal attributes put back, for the domain's own reads. */
  withPersonal(e: Entity): Entity {
    const attrs = this.byEntity.get(e.id);
    return attrs ? { ...e, ...attrs } : e;
  }

  /** True if personal data of `entityId` is kept. */
  has(entityId: string): boolean {
    return this.byEntity.has(entityId);
  }

  /** Drops the personal data of an entity (deleted); resolves once durable. */
  async forget(entityId: string): Promise<void> {
    if (!this.byEntity.delete(entityId)) return;
    await this.store?.commit(DEFAULT_TENANT, [{ graph: graphOf(entityId), triples: null }]);
  }
}
