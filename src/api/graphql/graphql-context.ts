import type { ReportInput } from "../../domain/reports/report-model";
import type { CameraDetailStats, CameraStatus, CameraView, TrafficDomain } from "../../domain/traffic";
import type { LiveBus } from "../../events/live-bus";
import type { Principal } from "../http/request-context";
import { BatchLoader } from "./batch-loader";

/** A citizen report as `submitCitizenReport` answers it (§4.11). */
export interface SubmittedReport {
  id: string;
  status: string;
  verificationStatus: string;
  message?: string;
}

/** What the GraphQL face is built on: the traffic domain, its writes and the live bus. */
export interface GraphqlDeps {
  domain: TrafficDomain;
  /** The camera status change of NGSI-LD PATCH (src/domain/traffic/cameras/camera-status.ts). */
  setCameraStatus(id: string, status: CameraStatus): Promise<CameraView>;
  /** The citizen report submission of the REST faces; undefined while this build has none. */
  submitReport?(input: ReportInput): Promise<SubmittedReport>;
  /** True if the principal may change data (operators, admins). */
  mayWrite(principal: Principal | undefined): boolean;
  /** True if the principal may submit citizen reports. */
  mayReport(principal: Principal | undefined): boolean;
  bus: LiveBus;
  /** Events waiting for one slow subscription before its socket is closed. */
  queueMessages: number;
}

/** The context of one GraphQL operation: the deps, the principal and the per-request loaders. */
export interface GraphqlContext extends GraphqlDeps {
  principal?: Principal;
  cameras: BatchLoader<string, CameraView | null>;
  /** A camera's statistics, computed once per request (in memory: no promise per camera). */
  statistics(cameraId: string): CameraDetailStats;
  /** When the operation's resolvers stop (ms since epoch): GRAPHQL_TIMEOUT after the request. */
  deadline?: number;
}

/** A fresh context (fresh loaders) for one request, or one event of a subscription. */
export function graphqlContext(deps: GraphqlDeps, principal: Principal | undefined): GraphqlContext {
  const { cameras } = deps.domain;
  return {
    ...deps,
    principal,
    cameras: new BatchLoader((ids) =>
      ids.map((id) => {
        const c = deps.domain.projection.cameras.get(id);
        return c ? cameras.view(c) : null;
      }),
    ),
    statistics: memo((id) => cameras.detailStats(id)),
  };
}

function memo<V>(f: (key: string) => V): (key: string) => V {
  const seen = new Map<string, V>();
  return (key) => {
    let v = seen.get(key);
    if (v === undefined) seen.set(key, (v = f(key)));
    return v;
  };
}
