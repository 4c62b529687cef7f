import type { ReplicaAnswer, ReplicaQuery } from "./replica-protocol";
import type { SparqlReplica } from "./sparql-replica";

/**
 * Several SPARQL read replicas behind one `query` (SPARQL_REPLICAS): a query goes to the first replica with
 * nothing running or waiting, else to the one with the least, so a short query is served by another
 * replica while a long one runs instead of waiting behind it. Each replica loads on its first query, so
 * the second copy of the graph is paid only once queries overlap.
 */
export class SparqlReplicaPool {
  constructor(private readonly replicas: SparqlReplica[]) {
    if (replicas.length === 0) throw new Error("a replica pool needs a replica");
  }

  /** Runs `q` on the least busy replica, the first ones preferred. */
  query(q: ReplicaQuery): Promise<ReplicaAnswer> {
    let best = this.replicas[0];
    for (const r of this.replicas) {
      if (r.pending() === 0) {
        best = r;
        break;
      }
      if (r.pending() < best.pending()) best = r;
    }
    return best.query(q);
  }

  /** One line for /health: each replica's state, e.g. `ready (6843744 quads, loaded in 61204 ms); idle`. */
  describe(): string {
    return this.replicas
      .map((r) => {
        const s = r.status();
        return s.state === "ready" ? `ready (${s.quads} quads, loaded in ${s.loadMs} ms)` : s.state;
      })
      .join("; ");
  }

  /** How many replicas are in each state (idle, loading, ready): a metric. */
  states(): Record<string, number> {
    const out: Record<string, number> = { idle: 0, loading: 0, ready: 0 };
    for (const r of this.replicas) out[r.status().state]++;
    return out;
  }

  /** Stops every replica. */
  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.close()));
  }
}
