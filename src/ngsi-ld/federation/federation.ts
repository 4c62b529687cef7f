import { randomUUID } from "node:crypto";
import type { DeliveryResult } from "../../jobs/job-queue";
import type { NotificationJob, NotificationQueue } from "../../jobs/notification-job";
import type { OutboundFetchFn } from "../../jobs/outbound-fetch";
import type { OutboundPolicy } from "../../jobs/outbound-policy";
import type { GraphStore } from "../../store/graph-store";
import { SubscriptionIndex } from "../subscriptions/subscription-index";
import { CSOURCE_SUBSCRIPTIONS, SubscriptionRepository } from "../subscriptions/subscription-repository";
import { SubscriptionService } from "../subscriptions/subscription-service";
import { CsourceNotifier } from "./csource-notifier";
import { Distributor } from "./distributor";
import { RegistrationRepository } from "./registration-repository";
import { RegistrationService, type ContextCompiler } from "./registration-service";

/** What federation needs from the broker. */
export interface FederationDeps {
  store: GraphStore;
  compile: ContextCompiler;
  /** Default timeout of a request to a context source, ms. */
  timeoutMs: number;
  /** This broker's id in `Via` headers; a random one when undefined. */
  brokerId?: string;
  statsFlushMs: number;
  /**
   * Where the broker's requests may go: registrations and csource subscriptions naming a refused endpoint
   * are 400, and each request to a source is checked at send time.
   */
  outbound: Pick<OutboundPolicy, "refusalResolved">;
  /** The outbound policy's fetch: every request to a source goes through it. */
  fetch: OutboundFetchFn;
  log(level: "info" | "warn" | "error", msg: string, fields?: object): void;
}

/** The federation parts of a running broker (ETSI GS CIM 009 v1.8 §4.3.6, §5.9 to §5.11). */
export interface Federation {
  registrations: RegistrationService;
  /** Context source registration subscriptions: the subscription service on its own graphs and index. */
  csourceSubscriptions: SubscriptionService;
  distributor: Distributor;
  /** Sets the notification queue the csource notifications go through. */
  attach(queue: NotificationQueue): void;
  /** The queue's delivery results (the ones of csource subscriptions are recorded, others ignored). */
  onResult(r: DeliveryResult<NotificationJob>): void;
  /** Writes pending delivery statuses and stops timers. */
  close(): Promise<void>;
}

/** Loads the stored registrations and csource subscriptions and wires them together. */
export async function openFederation(deps: FederationDeps): Promise<Federation> {
  const registrations = new RegistrationService(
    new RegistrationRepository(deps.store),
    deps.compile,
    (msg, f) => deps.log("warn", msg, f),
    (url) => deps.outbound.refusalResolved(url),
  );
  await registrations.load();
  const csourceSubscriptions = new SubscriptionService(
    new SubscriptionRepository(deps.store, CSOURCE_SUBSCRIPTIONS),
    new SubscriptionIndex(),
    deps.compile,
    (msg, f) => deps.log("warn", msg, f),
    (url) => deps.outbound.refusalResolved(url),
  );
  await csourceSubscriptions.load();
  const notifier = new CsourceNotifier({
    subs: csourceSubscriptions,
    regs: registrations,
    statsFlushMs: deps.statsFlushMs,
    log: deps.log,
  });
  const distributor = new Distributor(registrations, {
    brokerId: deps.brokerId ?? `citygraph-${randomUUID()}`,
    timeoutMs: deps.timeoutMs,
    fetch: deps.fetch,
  });
  return {
    registrations,
    csourceSubscriptions,
    distributor,
    attach: (q) => notifier.attach(q),
    onResult: (r) => notifier.onResult(r),
    close: async () => {
      notifier.close();
      await csourceSubscriptions.flush();
    },
  };
}
