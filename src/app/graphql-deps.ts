import { parseCitizenReportJson } from "../domain/reports/report-input";
import type { ReportsParts } from "./reports";
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
  reports?: ReportsParts,
): GraphqlDeps {
  return {
    submitReport: reports
      ? async (input, principal) => {
          const parsed = parseCitizenReportJson(input, "graphql");
          if (principal && principal.kind !== "anonymous") parsed.reporter.principalId = principal.id;
          const r = await reports.submission.submit(parsed);
          return {
            id: r.report.id,
            status: "submitted",
            verificationStatus: "pending",
            message: `Verification expected within ${r.estimatedVerificationTime}`,
          };
        }
      : undefined,
    domain: traffic,
    setCameraStatus: (id, status) =>
      setCameraStatus(core.attributes, traffic.cameras, traffic.projection.traffic, id, status),
    mayWrite: (p) => p !== undefined && auth.mayWrite(p),
    mayReport: (p) => p !== undefined && auth.mayReport(p),
    bus: live.bus,
    queueMessages: config.live.queueMessages,
  };
}
