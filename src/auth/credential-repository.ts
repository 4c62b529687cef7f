import { parseNTriples } from "../rdf/ntriples/parse";
import { ntIri, ntLine, ntLiteral } from "../rdf/ntriples/write";
import { RDF_JSON } from "../rdf/vocab";
import { DEFAULT_TENANT, INTERNAL_GRAPH_PREFIX, type GraphStore } from "../store/graph-store";
import type { CredentialKind, CredentialKinds } from "./credential-records";

/** Prefix of the named graphs holding users, API keys and refresh-token families. */
export const AUTH_GRAPH_PREFIX = `${INTERNAL_GRAPH_PREFIX}auth:`;
/** Predicate linking such a graph to its record (an rdf:JSON literal). */
export const AUTH_STATE = `${INTERNAL_GRAPH_PREFIX}authState`;

const graphOf = (kind: CredentialKind, id: string) => `${AUTH_GRAPH_PREFIX}${kind}:${encodeURIComponent(id)}`;

/**
 * Keeps users, API keys and refresh-token families in the graph store, as the subscriptions are kept: one
 * named graph per record under `urn:citygraph:internal:auth:` in the default tenant, holding one triple
 * whose object is the record as an rdf:JSON literal. Journaled and snapshotted like entities (a write
 * resolves once on disk), invisible to NGSI-LD, SPARQL and the entity indexes.
 */
export class CredentialRepository {
  constructor(private readonly store: GraphStore) {}

  /** Writes a record; resolves once durable. */
  async put<K extends CredentialKind>(kind: K, record: CredentialKinds[K]): Promise<void> {
    const g = graphOf(kind, record.id);
    const triples = ntLine(ntIri(g), AUTH_STATE, ntLiteral(JSON.stringify({ kind, record }), RDF_JSON));
    await this.store.commit(DEFAULT_TENANT, [{ graph: g, triples }]);
  }

  /** Drops a record; resolves once durable. */
  async remove(kind: CredentialKind, id: string): Promise<void> {
    await this.store.commit(DEFAULT_TENANT, [{ graph: graphOf(kind, id), triples: null }]);
  }

  /** Every stored record, by kind (start-up). */
  async loadAll(): Promise<{ [K in CredentialKind]: CredentialKinds[K][] }> {
    const out: { [K in CredentialKind]: CredentialKinds[K][] } = { user: [], "api-key": [], refresh: [] };
    if (!(await this.store.tenants()).includes(DEFAULT_TENANT)) return out;
    const rows = await this.store.select(
      DEFAULT_TENANT,
      `SELECT ?g ?s WHERE { GRAPH ?g { ?g <${AUTH_STATE}> ?s } }`,
    );
    for (const r of rows) {
      const [t] = parseNTriples(`${r.g} <${AUTH_STATE}> ${r.s} .\n`);
      const { kind, record } = JSON.parse(t.object.value) as { kind: CredentialKind; record: never };
      out[kind]?.push(record);
    }
    return out;
  }
}
