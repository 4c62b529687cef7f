import type { Config } from "../config/config";
import { outboundAgents } from "../jobs/outbound-agents";
import { boundOutboundFetch } from "../jobs/outbound-fetch";
import type { OutboundPolicy } from "../jobs/outbound-policy";
import type { Logger } from "../log/logger";
import { openFederation, type Federation } from "../ngsi-ld/federation/federation";
import type { ContextParts } from "./contexts";
import type { Storage } from "./storage";
import type { SubscriptionParts } from "./subscriptions";

/**
 * Context source registrations, their subscriptions and distributed operations (ETSI GS CIM 009 v1.8
 * §4.3.6, §5.9 to §5.11): loaded from the graph; csource notifications go through the one notification
 * queue, whose delivery results they share; requests to sources obey the outbound policy, as notifications.
 */
/** What federation is built from. */
export interface FederationDeps {
  config: Config;
  log: Logger;
  storage: Storage;
  contexts: ContextParts;
  subs: SubscriptionParts;
  outbound: OutboundPolicy;
}

export async function startFederation({
  config,
  log,
  storage: { store },
  contexts,
  subs,
  outbound,
}: FederationDeps): Promise<Federation> {
  const federation = await openFederation({
    store,
    compile: contexts.compile,
    timeoutMs: config.federation.federationTimeoutMs,
    brokerId: config.federation.federationBrokerId,
    statsFlushMs: config.notify.statusFlushMs,
    outbound,
    fetch: boundOutboundFetch(outboundAgents(outbound)),
    log: (level, msg, fields) => log.log(level, msg, fields),
  });
  subs.addHolder(federation.csourceSubscriptions);
  federation.attach(subs.queue);
  subs.onDelivery((r) => federation.onResult(r));
  return federation;
}
