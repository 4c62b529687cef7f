import type { GraphqlDeps } from "../api/graphql/graphql-context";
import type { LiveAuth } from "../api/http/live-auth";
import type { Config } from "../config/config";
import type { TrafficDomain } from "../domain/traffic";
import { setCameraStatus } from "../domain/traffic/camera-status";
import type { LiveParts } from "./live";
import type { NgsiLdCore } from "./ngsi-ld";

/** What the GraphQL face reads and writes through: the traffic domain, the NGSI-LD attribute service, the live bus. */
export function graphqlDeps(
  config: Config,
  core: NgsiLdCore,
  traffic: TrafficDomain,
  live: LiveParts,
  auth: LiveAuth,
): GraphqlDeps {
  return {
    domain: traffic,
    setCameraStatus: (id, status) =>
      setCameraStatus(core.attributes, traffic.cameras, traffic.projection.traffic, id, status),
    mayWrite: (p) => p !== undefined && auth.mayWrite(p),
    mayReport: (p) => p !== undefined && auth.mayReport(p),
    bus: live.bus,
    queueMessages: config.live.queueMessages,
  };
}
