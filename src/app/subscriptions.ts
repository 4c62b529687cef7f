import path from "node:path";
import type { Config } from "../config/config";
import type { CommitPipeline } from "../events/commit-pipeline";
import { createNotificationQueue } from "../jobs/create-notification-queue";
import type { DeliveryResult } from "../jobs/job-queue";
import { closeMqttClients } from "../jobs/mqtt-sender";
import type { NotificationJob, NotificationQueue } from "../jobs/notification-job";
import type { OutboundPolicy } from "../jobs/outbound-policy";
import type { Logger } from "../log/logger";
import { queryEntities } from "../ngsi-ld/query/entity-query";
import { SubscriptionIndex } from "../ngsi-ld/subscriptions/subscription-index";
import { SubscriptionNotifier } from "../ngsi-ld/subscriptions/subscription-notifier";
import { SubscriptionRepository } from "../ngsi-ld/subscriptions/subscription-repository";
import { SubscriptionService } from "../ngsi-ld/subscriptions/subscription-service";
import { DeliveryLog } from "../ngsi-ld/subscriptions/delivery-log";
import type { ContextParts } from "./contexts";
import { fastEntityCodec } from "./entity-codec";
import type { NgsiLdCore } from "./ngsi-ld";
import type { Storage } from "./storage";

/** NGSI-LD subscriptions, their notifier and the delivery queue. */
export interface SubscriptionParts {
  subscriptions: SubscriptionService;
  queue: NotificationQueue;
  /** Adds subscriptions whose notifications the queue also sends while they exist (csource subscriptions). */
  addHolder(holder: SubscriptionService): void;
  /** Adds a listener of every delivery attempt's outcome (the accident timeline's `alert_sent`). */
  onDelivery(listener: (r: DeliveryResult<NotificationJob>) => void): void;
  close(): Promise<void>;
}

/**
 * Loads the subscriptions, starts the notification queue (in process, or BullMQ with `REDIS_URL`) and
 * registers the notifier as a delivery stage: an acknowledged write has its notifications enqueued.
 */
/** What the subscriptions are built from. */
export interface SubscriptionDeps {
  config: Config;
  log: Logger;
  storage: Storage;
  contexts: ContextParts;
  core: NgsiLdCore;
  pipeline: CommitPipeline;
  outbound: OutboundPolicy;
}

export async function startSubscriptions({
  config,
  log,
  storage: { store },
  contexts,
  core,
  pipeline,
  outbound,
}: SubscriptionDeps): Promise<SubscriptionParts> {
  const deliveryLog = new DeliveryLog(path.join(config.store.dataDir, "deliveries"));
  const subscriptions = new SubscriptionService(
    new SubscriptionRepository(store),
    new SubscriptionIndex(),
    contexts.compile,
    (msg, fields) => log.warn(msg, fields),
    (uri) => outbound.refusalResolved(uri),
    deliveryLog,
  );
  await subscriptions.load();
  const notifier = new SubscriptionNotifier({
    service: subscriptions,
    read: (tenant, ids, ctx) => core.views.read(tenant, ids, ctx),
    recompact: (e, from, to) => fastEntityCodec.fromTriples(fastEntityCodec.toTriples(e, from), e.id, to),
    query: async (tenant, filter, ctx) =>
      (
        await queryEntities(
          core.querySources,
          tenant,
          { ...filter, limit: config.query.maxLimit, offset: 0, count: false },
          ctx,
        )
      ).entities,
    statsFlushMs: config.notify.statusFlushMs,
    maxPerSecond: config.notify.maxRate,
    log: (level, msg, fields) => log.log(level, msg, fields),
  });
  const delivered: ((r: DeliveryResult<NotificationJob>) => void)[] = [];
  // a notification is sent only while its subscription exists: none after a DELETE is answered
  const holders = [subscriptions];
  const queue = createNotificationQueue({
    config: config.notify,
    redisUrl: config.redisUrl,
    dataDir: config.store.dataDir,
    policy: outbound,
    wanted: (job) => holders.some((h) => h.holds(job)),
    onResult: (r) => {
      notifier.onResult(r);
      for (const l of delivered) l(r);
    },
    onError: (e) => log.error("notification queue error", { error: e.message }),
  });
  notifier.attach(queue);
  pipeline.deliver("NGSI-LD notifications", notifier);
  return {
    subscriptions,
    queue,
    addHolder: (h) => void holders.push(h),
    onDelivery: (l) => void delivered.push(l),
    close: async () => {
      notifier.close();
      await subscriptions.flush();
      await queue.close();
      deliveryLog.close();
      await closeMqttClients();
    },
  };
}
