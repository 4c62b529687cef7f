import type { GraphqlDeps } from "../api/graphql/graphql-context";
import type { LiveAuth } from "../api/http/live-auth";
import type { Config } from "../config/config";
import type { TrafficDomain } from "../domain/traffic";
import { setCameraStatus } from "../domain/traffic/cameras/camera-status";
import type { LiveParts } from "./live";
import type { ReportsParts } from "./reports";
import type { NgsiLdCore } from "./ngsi-ld";

/** What the GraphQL face reads and writes through: the traffic domain, the NGSI-LD attribute service, the live bus. */
/** The parts the GraphQL resolvers are wired to. */
export interface GraphqlParts {
  config: Config;
  core: NgsiLdCore;
  traffic: TrafficDomain;
  live: LiveParts;
  auth: LiveAuth;
  reports: ReportsParts;
}

export function graphqlDeps({ config, core, traffic, live, auth, reports }: GraphqlParts): GraphqlDeps {
  return {
    domain: traffic,
    setCameraStatus: (id, status) =>
      setCameraStatus(core.attributes, traffic.cameras, traffic.projection.traffic, id, status),
    mayWrite: (p) => p !== undefined && auth.mayWrite(p),
    mayReport: (p) => p !== undefined && auth.mayReport(p),
    // the same submission as REST A/B POST /citizen-reports (input rules, images, verification)
    submitReport: async (input) => {
      const res = await reports.submission.submit(input);
      return {
        id: res.report.id,
        status: res.report.status === "pending" ? "submitted" : res.report.status,
        verificationStatus: res.report.verificationStatus,
        message: `Report received; verification expected within ${res.estimatedVerificationTime}`,
      };
    },
    bus: live.bus,
    queueMessages: config.live.queueMessages,
  };
}
