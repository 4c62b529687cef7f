import { DEFAULT_TENANT } from "../store/graph-store";
import { createTrafficDomain, type TrafficDomain } from "../domain/traffic";
import { TRAFFIC_ENTITY_CONTEXT } from "../domain/vocabulary";
import type { CommitPipeline } from "../events/commit-pipeline";
import type { ContextParts } from "./contexts";
import type { NgsiLdCore } from "./ngsi-ld";
import type { Storage } from "./storage";

/**
 * The traffic domain over the NGSI-LD model: registered as a derived stage of the commit pipeline and
 * told of every change of the temporal history, then filled from the graph and its temporal history.
 */
export async function buildTrafficDomain(
  storage: Storage,
  contexts: ContextParts,
  core: NgsiLdCore,
  pipeline: CommitPipeline,
): Promise<TrafficDomain> {
  const traffic = await contexts.compile([...TRAFFIC_ENTITY_CONTEXT]);
  const domain = createTrafficDomain({
    traffic,
    temporal: storage.temporal.index,
    entities: core.entities,
    places: { geo: core.geo, ready: () => core.querySources.index.ready() },
    source: {
      idsOfType: (tenant, type) =>
        [...core.index.entries(tenant)].filter(([, t]) => t.includes(type)).map(([id]) => id),
      read: (tenant, ids, ctx) => core.views.read(tenant, ids, ctx),
    },
  });
  pipeline.derive("traffic projection", (e) => domain.apply(e));
  storage.temporal.onChange((c) => {
    if (!c || c.tenant === DEFAULT_TENANT) domain.historyVersions.changed(c?.entityId);
  });
  await domain.load();
  return domain;
}
