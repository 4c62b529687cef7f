import fs from "node:fs";
import path from "node:path";
import { triplesToEntity } from "../../ngsi-ld/codec";
import { CORE_CONTEXT_URL } from "../../rdf/contexts/core";
import { compileContext } from "../../rdf/contexts/compile-context";
import { projectContextsDir } from "../../rdf/contexts/project-root";
import { isEntityGraph, isHistoryGraph } from "../../store/graph-store";
import type { SetAsideRecord } from "./set-aside-records";

/** What became of one graph write of a set-aside record. */
export interface ReplayOutcome {
  seq: number;
  tenant: string;
  graph: string;
  replayed: boolean;
  /** Why it was not replayed, or how (`deleted`, `already absent`). */
  note?: string;
}

const NOT_ENTITY =
  "the broker's own state (users, keys, subscriptions, registrations): make it again through its API";
const HISTORY = "a sealed hour of the temporal history: sealed again from the history";

/**
 * Replays set-aside commits into a running service through its NGSI-LD API (docs/operations.md "Journal
 * damage"), so that each goes the way of any write: the store's commit and journal, the temporal
 * history, the indexes, the subscriptions. Each entity graph is read back as an entity with full IRIs
 * and upserted with replace (§5.6.8 batch upsert); a dropped graph is deleted. Graphs that are not
 * entities are named, not written: no API takes them as they are. Entities get new createdAt and
 * modifiedAt; observedAt and every value stay. Records go in seq order, each after the previous answered.
 */
export async function replaySetAside(
  records: SetAsideRecord[],
  baseUrl: string,
  headers: Record<string, string>,
): Promise<ReplayOutcome[]> {
  const ctx = coreContext();
  const out: ReplayOutcome[] = [];
  for (const r of [...records].sort((a, b) => a.seq - b.seq)) {
    const h = { ...headers, ...(r.tenant ? { "NGSILD-Tenant": r.tenant } : {}) };
    const entities: Record<string, unknown>[] = [];
    for (const w of r.writes) {
      const at = { seq: r.seq, tenant: r.tenant, graph: w.graph };
      if (!isEntityGraph(w.graph)) {
        out.push({ ...at, replayed: false, note: isHistoryGraph(w.graph) ? HISTORY : NOT_ENTITY });
      } else if (w.triples === null) {
        out.push({ ...at, ...(await deleteEntity(baseUrl, h, w.graph)) });
      } else {
        entities.push({ ...triplesToEntity(w.triples, w.graph, ctx), "@context": CORE_CONTEXT_URL });
      }
    }
    if (entities.length) out.push(...(await upsert(baseUrl, h, entities, r)));
  }
  return out;
}

/** The core context alone: entities read with it name every other term by its full IRI. */
function coreContext(): ReturnType<typeof compileContext> {
  const file = path.join(projectContextsDir(), "ngsi-ld-core-context-v1.8.jsonld");
  return compileContext([JSON.parse(fs.readFileSync(file, "utf8")) as object]);
}

async function upsert(
  baseUrl: string,
  headers: Record<string, string>,
  entities: Record<string, unknown>[],
  r: SetAsideRecord,
): Promise<ReplayOutcome[]> {
  const res = await fetch(new URL("/ngsi-ld/v1/entityOperations/upsert?options=replace", baseUrl), {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/ld+json" },
    body: JSON.stringify(entities),
  });
  const text = await res.text();
  const failed = new Map<string, string>();
  if (res.status === 207) {
    const body = JSON.parse(text) as {
      errors?: { entityId: string; error: { detail?: string; title?: string } }[];
    };
    for (const e of body.errors ?? []) failed.set(e.entityId, e.error.detail ?? e.error.title ?? "refused");
  } else if (res.status >= 300) {
    for (const e of entities) failed.set(e.id as string, `HTTP ${res.status}: ${text.slice(0, 200)}`);
  }
  return entities.map((e) => {
    const graph = e.id as string;
    const why = failed.get(graph);
    return { seq: r.seq, tenant: r.tenant, graph, replayed: why === undefined, note: why };
  });
}

async function deleteEntity(
  baseUrl: string,
  headers: Record<string, string>,
  id: string,
): Promise<{ replayed: boolean; note: string }> {
  const res = await fetch(new URL(`/ngsi-ld/v1/entities/${encodeURIComponent(id)}`, baseUrl), {
    method: "DELETE",
    headers,
  });
  await res.text();
  if (res.status === 204) return { replayed: true, note: "deleted" };
  if (res.status === 404) return { replayed: true, note: "already absent" };
  return { replayed: false, note: `delete answered HTTP ${res.status}` };
}
