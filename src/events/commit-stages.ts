/**
 * Every stage of the commit pipeline, in the order it runs; the pipeline runs registered stages in this
 * order whatever order the composition registers them in (docs/architecture.md "The commit pipeline").
 *
 * A commit runs: the store applies the write; the durable stages write alongside the fsync of its journal
 * record; once both are on disk (or the durable stages failed: the journal holds the write all the same)
 * the derived stages, then the delivery stages' enqueues, see the change event, in journal order; the
 * write is acknowledged once every delivery stage has settled it.
 */
export const COMMIT_STAGES = [
  { kind: "durable", name: "temporal history", what: "the history instances of every changed attribute" },
  { kind: "derived", name: "entity index", what: "ids and types per tenant" },
  { kind: "derived", name: "geo index", what: "GeoProperty geometries (rbush)" },
  { kind: "derived", name: "discovery index", what: "types and attributes for discovery" },
  { kind: "derived", name: "graph cache", what: "recently read entity graphs" },
  { kind: "derived", name: "response cache", what: "rendered NGSI-LD answers" },
  { kind: "derived", name: "rendered entity cache", what: "rendered entities" },
  { kind: "derived", name: "attribute index", what: "attribute values for q filters" },
  { kind: "derived", name: "entity view cache", what: "entities as the query engine reads them" },
  {
    kind: "derived",
    name: "derived indexes' seq",
    what: "the last commit the derived indexes applied, for their image at a clean stop",
  },
  { kind: "derived", name: "traffic projection", what: "the traffic domain's read models" },
  { kind: "derived", name: "live events (WebSocket, GraphQL)", what: "events for the push faces" },
  {
    kind: "derived",
    name: "personal data of deleted entities",
    what: "drops the personal data kept apart for an entity deleted on any face",
  },
  { kind: "deliver", name: "NGSI-LD notifications", what: "subscriptions matched, notifications enqueued" },
  { kind: "deliver", name: "alert deliveries", what: "alert subscriptions matched, deliveries enqueued" },
  { kind: "deliver", name: "report re-scoring", what: "verification of reports near a change" },
] as const;

type Stage = (typeof COMMIT_STAGES)[number];
/** The name of a stage of `kind`. */
export type StageName<K extends Stage["kind"]> = Extract<Stage, { kind: K }>["name"];

/** The position of a stage in {@link COMMIT_STAGES}. */
export function stageOrder(name: string): number {
  return COMMIT_STAGES.findIndex((s) => s.name === name);
}
