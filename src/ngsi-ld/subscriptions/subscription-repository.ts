import { parseNTriples } from "../../rdf/ntriples/parse";
import { ntIri, ntLine, ntLiteral } from "../../rdf/ntriples/write";
import { RDF_JSON } from "../../rdf/vocab";
import { INTERNAL_GRAPH_PREFIX, type GraphStore, type GraphWrite } from "../../store/graph-store";
import type { SubscriptionRecord } from "./subscription";

/** Prefix of the named graph holding one subscription. */
export const SUBSCRIPTION_GRAPH_PREFIX = `${INTERNAL_GRAPH_PREFIX}subscription:`;
/** Predicate linking a subscription graph to its state (an rdf:JSON literal). */
export const SUBSCRIPTION_STATE = `${INTERNAL_GRAPH_PREFIX}subscriptionState`;

/** Prefix of the named graph holding one context source registration subscription (§5.11). */
export const CSOURCE_SUBSCRIPTION_GRAPH_PREFIX = `${INTERNAL_GRAPH_PREFIX}csourceSubscription:`;
/** Predicate linking a context source registration subscription graph to its state. */
export const CSOURCE_SUBSCRIPTION_STATE = `${INTERNAL_GRAPH_PREFIX}csourceSubscriptionState`;

/** Where one kind of subscription is kept: entity subscriptions, or context source ones. */
export interface SubscriptionGraphs {
  prefix: string;
  state: string;
}

/** The graphs of entity subscriptions (§5.8). */
export const ENTITY_SUBSCRIPTIONS: SubscriptionGraphs = {
  prefix: SUBSCRIPTION_GRAPH_PREFIX,
  state: SUBSCRIPTION_STATE,
};

/** The graphs of context source registration subscriptions (§5.11). */
export const CSOURCE_SUBSCRIPTIONS: SubscriptionGraphs = {
  prefix: CSOURCE_SUBSCRIPTION_GRAPH_PREFIX,
  state: CSOURCE_SUBSCRIPTION_STATE,
};

/** What is kept per subscription: the record without its tenant (the dataset says that); `owner` absent in older records. */
type StoredState = Omit<SubscriptionRecord, "tenant">;

/** The stored state, checked for the members every reader relies on. */
function storedState(v: unknown): StoredState {
  const s = v as Partial<StoredState> | null;
  if (
    typeof s !== "object" ||
    s === null ||
    typeof s.sub !== "object" ||
    s.sub === null ||
    typeof s.sub.id !== "string" ||
    typeof s.sub.createdAt !== "string" ||
    typeof s.stats !== "object" ||
    s.stats === null ||
    (s.owner !== undefined && typeof s.owner !== "string")
  ) {
    throw new Error("not a subscription record");
  }
  return s as StoredState;
}

/**
 * Keeps subscriptions in the graph store: one named graph per subscription under `urn:citygraph:internal:subscription:`, holding one
 * triple whose object is the subscription's state as an rdf:JSON literal. The graphs are journaled and
 * snapshotted like entities, in the subscription's tenant, and invisible to SPARQL and the entity indexes.
 * Context source registration subscriptions are kept the same way under their own prefix (`graphs`).
 */
export class SubscriptionRepository {
  constructor(
    private readonly store: GraphStore,
    private readonly graphs: SubscriptionGraphs = ENTITY_SUBSCRIPTIONS,
  ) {}

  private graphOf(id: string): string {
    return this.graphs.prefix + encodeURIComponent(id);
  }

  /** Writes the current state of subscriptions of one tenant in one commit; resolves once durable. */
  async save(tenant: string, records: SubscriptionRecord[]): Promise<void> {
    if (records.length === 0) return;
    const writes: GraphWrite[] = records.map((r) => {
      const state: StoredState = { sub: r.sub, context: r.context, stats: r.stats, owner: r.owner };
      const g = this.graphOf(r.sub.id);
      return {
        graph: g,
        triples: ntLine(ntIri(g), this.graphs.state, ntLiteral(JSON.stringify(state), RDF_JSON)),
      };
    });
    await this.store.commit(tenant, writes);
  }

  /** Drops a subscription's graph; resolves once durable. */
  async remove(tenant: string, id: string): Promise<void> {
    await this.store.commit(tenant, [{ graph: this.graphOf(id), triples: null }]);
  }

  /**
   * Every stored subscription of every tenant (start-up). A record that does not read as a subscription
   * (damaged, or written by an older build) is passed to `skipped` and left out: it never stops a start.
   */
  async loadAll(
    skipped: (graph: string, error: string) => void = () => undefined,
  ): Promise<SubscriptionRecord[]> {
    const out: SubscriptionRecord[] = [];
    for (const tenant of await this.store.tenants()) {
      const rows = await this.store.select(
        tenant,
        `SELECT ?g ?s WHERE { GRAPH ?g { ?g <${this.graphs.state}> ?s } }`,
      );
      for (const r of rows) {
        try {
          const [t] = parseNTriples(`${r.g} <${this.graphs.state}> ${r.s} .\n`);
          if (!t.subject.value.startsWith(this.graphs.prefix)) throw new Error("not a subscription graph");
          out.push({ tenant, ...storedState(JSON.parse(t.object.value)) });
        } catch (e) {
          skipped(r.g, (e as Error).message);
        }
      }
    }
    out.sort((a, b) => a.sub.createdAt.localeCompare(b.sub.createdAt));
    return out;
  }
}
