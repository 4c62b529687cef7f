import path from "node:path";
import type { Config } from "../config/config";
import { activeAlerts } from "../domain/alerts/active-alerts";
import { AlertStage } from "../domain/alerts/alert-stage";
import { AlertSubscriptions } from "../domain/alerts/alert-subscriptions";
import { CityPlaces } from "../domain/city-places";
import { GraphAccess } from "../domain/graph-access";
import { PersonalData } from "../domain/personal-data";
import { personalDataGuard } from "../domain/personal-data-guard";
import { movePersonalDataApart } from "../domain/personal-data-move";
import type { TrafficDomain } from "../domain/traffic";
import { MediaStore } from "../domain/reports/report-images";
import { RescoreStage } from "../domain/reports/rescore-stage";
import { ReviewService } from "../domain/reports/review-service";
import { SubmissionService } from "../domain/reports/submission-service";
import { VerificationService, type VerifyJob } from "../domain/reports/verification-service";
import { TRAFFIC_ENTITY_CONTEXT } from "../domain/vocabulary";
import type { CommitPipeline } from "../events/commit-pipeline";
import { createJobQueue } from "../jobs/create-job-queue";
import type { JobQueue } from "../jobs/job-queue";
import { reportDelivery } from "../jobs/job-stamp";
import type { AlertJob, ChannelSender } from "../jobs/senders/alert-job";
import { ChannelSenders } from "../jobs/senders/channel-senders";
import { EmailSender } from "../jobs/senders/email-sender";
import { loadOrMakeVapidKeys, PushSender } from "../jobs/senders/push-sender";
import { SmsSender } from "../jobs/senders/sms-sender";
import { WebhookSender } from "../jobs/senders/webhook-sender";
import { outboundAgents } from "../jobs/outbound-agents";
import type { OutboundPolicy } from "../jobs/outbound-policy";
import type { Logger } from "../log/logger";
import type { Metrics } from "../observability/metrics";
import { KeyedLock } from "../ngsi-ld/entities/keyed-lock";
import type { ContextParts } from "./contexts";
import type { NgsiLdCore } from "./ngsi-ld";
import type { Storage } from "./storage";

/** Citizen reports (submission, verification, review) and alerts (subscriptions, matching, channels). */
export interface ReportsParts {
  graph: GraphAccess;
  places: CityPlaces;
  media: MediaStore;
  submission: SubmissionService;
  review: ReviewService;
  verification: VerificationService;
  verifyQueue: JobQueue<VerifyJob>;
  alertSubscriptions: AlertSubscriptions;
  alertQueue: JobQueue<AlertJob>;
  senders: ChannelSenders;
  activeAlerts(): ReturnType<typeof activeAlerts>;
  vapidPublicKey: string;
  close(): Promise<void>;
}

/** The public path of a stored report image. */
export const mediaPath = (name: string): string => `/v1/media/${name}`;

/** What the reports and alerts domain is built from. */
export interface ReportsDeps {
  config: Config;
  log: Logger;
  core: NgsiLdCore;
  contexts: ContextParts;
  pipeline: CommitPipeline;
  traffic: TrafficDomain;
  outbound: OutboundPolicy;
  storage: Storage;
  /** Where the verification and alert queues report each delivery attempt. */
  metrics: Metrics;
}

/**
 * Builds the reports and alerts domain over the graph, the personal data of reports and alert
 * subscriptions kept apart in internal graphs of the store (and dropped with an entity deleted on any
 * face): verification and alert deliveries on the job
 * queue (in process, or BullMQ with `REDIS_URL`), the re-score and alert stages on the commit pipeline,
 * and queues the verification of every report still waiting for one.
 */
export async function startReports({
  config,
  log,
  core,
  contexts,
  pipeline,
  traffic,
  outbound,
  storage: { store, temporal },
  metrics,
}: ReportsDeps): Promise<ReportsParts> {
  const rc = config.reports;
  const personal = new PersonalData(store);
  await personal.load();
  pipeline.derive("personal data of deleted entities", (e) => {
    for (const w of e.writes)
      if (e.tenant === "" && w.triples === null && personal.has(w.graph))
        personal
          .forget(w.graph)
          .catch((err: Error) => log.warn("personal data not dropped", { error: err.message }));
  });
  const graph = new GraphAccess({
    entities: core.entities,
    sources: core.querySources,
    context: await contexts.compile([...TRAFFIC_ENTITY_CONTEXT]),
    maxLimit: config.query.maxLimit,
    personal,
  });
  // every write path keeps personal data apart from now on; what the graph or the history held before moves
  const guard = personalDataGuard(personal, graph.ctx);
  core.repo.setWriteGuard(guard);
  temporal.setWriteGuard(guard);
  const moved = await movePersonalDataApart(
    {
      idsOfType: (iri) =>
        [...core.index.entries("")].filter(([, types]) => types.includes(iri)).map(([id]) => id),
      read: async (id) => (await core.views.read("", [id], graph.ctx))[0],
      drop: (id, name) => core.attributes.deleteAttribute("", id, name, { deleteAll: true }, graph.ctx),
      inHistory: (id, name) => !!temporal.index.entity("", id)?.attrs.has(graph.ctx.expandTerm(name)),
      dropHistory: (id, name) =>
        temporal.deleteAttribute("", id, graph.ctx.expandTerm(name), undefined, true),
    },
    personal,
    graph.ctx,
  );
  if (moved) log.info("personal data moved out of the shared graph", { entities: moved });
  const places = new CityPlaces(graph, () => traffic.zones.list());
  const media = new MediaStore(path.join(config.store.dataDir, "media"));
  const locks = new KeyedLock();
  const info = (msg: string, f?: object) => log.info(msg, f);
  const warn = (msg: string, f?: object) => log.warn(msg, f);
  const verification = new VerificationService({
    graph,
    locks,
    delayMs: rc.verifyDelayMs,
    log: (m, f) => log.debug(m, f),
  });
  const n = config.notify;
  const place = (suffix: string) => ({
    redisUrl: config.redisUrl,
    name: `${n.queueName}-${suffix}`,
    dataDir: config.store.dataDir,
    stalledMs: n.stalledMs,
    keepDead: n.keepDead,
  });
  const verifyQueue = createJobQueue<VerifyJob>({
    run: (job) => verification.run(job),
    settings: { ...n, perEndpoint: 4, concurrency: 4 },
    place: { ...place("verify"), priorityOf: (j) => (j as VerifyJob).priority },
    onResult: (r) => {
      reportDelivery(metrics, "verification", r);
      if (!r.ok) warn("verification failed", { report: r.job.reportId, error: r.error, dead: r.final });
    },
    onError: (e) => log.error("verification queue error", { error: e.message }),
  });
  verification.attach(verifyQueue);
  const review = new ReviewService(graph, places, locks);
  let backlog = { at: 0, n: Promise.resolve(0) };
  const reviewBacklog = (): Promise<number> => {
    // the review queue's length for the estimate, read at most every 10 s (it reads every report)
    if (Date.now() - backlog.at > 10_000)
      backlog = { at: Date.now(), n: review.queue().then((q) => q.length) };
    return backlog.n;
  };
  const submission = new SubmissionService({
    graph,
    places,
    media,
    verification,
    mediaUrl: mediaPath,
    reviewBacklog,
    verifyDelayMs: rc.verifyDelayMs,
  });

  const vapid = loadOrMakeVapidKeys(config.store.dataDir);
  // every connection of webhooks, push and the SMS gateway is checked by the outbound policy's agents
  const agents = outboundAgents(outbound);
  const list: ChannelSender[] = [
    new WebhookSender(agents),
    new PushSender(vapid, rc.vapidSubject, agents.https),
  ];
  if (rc.smtpUrl) list.push(new EmailSender(rc.smtpUrl, rc.emailFrom));
  if (rc.smsGatewayUrl) list.push(new SmsSender(rc.smsGatewayUrl, agents));
  // webhook and push URLs obey the outbound policy of notifications: at subscription and at each send
  const senders = new ChannelSenders(list, (url) => outbound.check(url));
  const alertQueue = createJobQueue<AlertJob>({
    run: (job, timeoutMs) => senders.send(job, timeoutMs),
    settings: n,
    place: place("alerts"),
    onResult: (r) => {
      reportDelivery(metrics, "alerts", r);
      if (!r.ok)
        warn("alert delivery failed", {
          channel: r.job.channel,
          uri: r.job.uri,
          error: r.error,
          dead: r.final,
        });
    },
    onError: (e) => log.error("alert queue error", { error: e.message }),
  });
  const alertSubscriptions = new AlertSubscriptions({
    graph,
    places,
    configured: (c) => senders.configured(c),
    urlRefusal: (url) => outbound.refusalOf(url),
  });
  await alertSubscriptions.load();
  pipeline.deliver(
    "alert deliveries",
    new AlertStage({ graph, places, subscriptions: alertSubscriptions, queue: alertQueue, log: warn }),
  );
  pipeline.deliver("report re-scoring", new RescoreStage(graph, verification, warn));
  const resumed = await verification.resume();
  if (resumed) info("report verifications queued again from the graph", { reports: resumed });
  return {
    graph,
    places,
    media,
    submission,
    review,
    verification,
    verifyQueue,
    alertSubscriptions,
    alertQueue,
    senders,
    activeAlerts: () => activeAlerts(graph, places),
    vapidPublicKey: vapid.publicKey,
    close: async () => {
      await verifyQueue.close();
      await alertQueue.close();
      await senders.close();
    },
  };
}
