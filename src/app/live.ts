import type { Config } from "../config/config";
import { historyReplay } from "../domain/live/live-history";
import { LiveProducer } from "../domain/live/live-producer";
import { trafficLiveModel } from "../domain/live/traffic-live-model";
import type { TrafficDomain } from "../domain/traffic";
import type { CommitPipeline } from "../events/commit-pipeline";
import { createLiveBus } from "../events/create-live-bus";
import type { LiveBus } from "../events/live-bus";
import type { LiveReplay } from "../events/live-replay";
import type { Logger } from "../log/logger";
import type { NgsiLdCore } from "./ngsi-ld";
import type { Storage } from "./storage";

/** The live events both push faces share. */
export interface LiveParts {
  bus: LiveBus;
  replay: LiveReplay;
  close(): Promise<void>;
}

/**
 * The live-event bus (in process, or Redis pub/sub with `REDIS_URL`), its producer as a derived stage
 * of the commit pipeline after the traffic model's, and the replay of resuming subscribers.
 */
/** What the live faces' source is built from. */
export interface LiveDeps {
  config: Config;
  log: Logger;
  storage: Storage;
  core: NgsiLdCore;
  traffic: TrafficDomain;
  pipeline: CommitPipeline;
}

export async function startLive({
  config,
  log,
  storage,
  core,
  traffic,
  pipeline,
}: LiveDeps): Promise<LiveParts> {
  const bus = await createLiveBus(config.redisUrl, config.live.channel, (e) =>
    log.warn("live events error", { error: String(e) }),
  );
  const model = trafficLiveModel(traffic);
  const producer = new LiveProducer(model, bus);
  const detach = pipeline.derive("live events (WebSocket, GraphQL)", (e) => producer.apply(e));
  const replay = historyReplay(model, storage.temporal.index, async (tenant, ids) => ({
    entities: await core.views.read(tenant, ids, traffic.projection.traffic),
    ctx: traffic.projection.traffic,
  }));
  return {
    bus,
    replay,
    close: async () => {
      detach();
      await bus.close();
    },
  };
}
