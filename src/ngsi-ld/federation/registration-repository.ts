import { parseNTriples } from "../../rdf/ntriples/parse";
import { ntIri, ntLine, ntLiteral } from "../../rdf/ntriples/write";
import { RDF_JSON } from "../../rdf/vocab";
import { INTERNAL_GRAPH_PREFIX, type GraphStore } from "../../store/graph-store";
import type { RegistrationRecord } from "./registration";

/** Prefix of the named graph holding one context source registration. */
export const REGISTRATION_GRAPH_PREFIX = `${INTERNAL_GRAPH_PREFIX}csourceRegistration:`;
/** Predicate linking a registration graph to its state (an rdf:JSON literal). */
export const REGISTRATION_STATE = `${INTERNAL_GRAPH_PREFIX}csourceRegistrationState`;

type StoredState = Omit<RegistrationRecord, "tenant">;

const graphOf = (id: string) => REGISTRATION_GRAPH_PREFIX + encodeURIComponent(id);

/**
 * Keeps context source registrations in the graph store, as subscriptions are kept
 * (see subscription-repository.ts): one internal named graph per registration in its tenant, holding
 * one triple whose object is the registration as an rdf:JSON literal; journaled and snapshotted, so
 * registrations survive restarts, and invisible to SPARQL and the entity indexes.
 */
export class RegistrationRepository {
  constructor(private readonly store: GraphStore) {}

  /** Writes one registration; resolves once durable. */
  async save(r: RegistrationRecord): Promise<void> {
    const state: StoredState = { reg: r.reg, context: r.context };
    const g = graphOf(r.reg.id);
    const triples = ntLine(ntIri(g), REGISTRATION_STATE, ntLiteral(JSON.stringify(state), RDF_JSON));
    await this.store.commit(r.tenant, [{ graph: g, triples }]);
  }

  /** Drops a registration's graph; resolves once durable. */
  async remove(tenant: string, id: string): Promise<void> {
    await this.store.commit(tenant, [{ graph: graphOf(id), triples: null }]);
  }

  /** Every stored registration of every tenant, oldest first (start-up). */
  async loadAll(): Promise<RegistrationRecord[]> {
    const out: RegistrationRecord[] = [];
    for (const tenant of await this.store.tenants()) {
      const rows = await this.store.select(
        tenant,
        `SELECT ?g ?s WHERE { GRAPH ?g { ?g <${REGISTRATION_STATE}> ?s } }`,
      );
      for (const r of rows) {
        const [t] = parseNTriples(`${r.g} <${REGISTRATION_STATE}> ${r.s} .\n`);
        out.push({ tenant, ...(JSON.parse(t.object.value) as StoredState) });
      }
    }
    out.sort((a, b) => a.reg.createdAt.localeCompare(b.reg.createdAt));
    return out;
  }
}
