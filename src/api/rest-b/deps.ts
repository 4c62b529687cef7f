import type { CameraImageSource } from "../../domain/images";
import type { EntitySource, GeoPoint, TrafficDomain } from "../../domain/traffic";
import type { FlowIntervals } from "../../domain/traffic/flow/flow-intervals";
import type { PeriodStats } from "../../domain/traffic/flow/period-stats";
import type { CursorCodec } from "../rest/cursor-codec";
import type { ReportsApi } from "../rest/reports-api";

/** Where variant B is served (README.md "The faces"). */
export const REST_B_PREFIX = "/api/v1";

/** What the B routes read: the traffic domain and the B-specific views over it. */
export interface RestBDeps {
  d: TrafficDomain;
  images: CameraImageSource;
  codec: CursorCodec;
  flows: FlowIntervals;
  stats: PeriodStats;
  /** Entity ids within `metres` of `centre` (the geo index's `near` query). */
  near(centre: GeoPoint, metres: number): Promise<Set<string>>;
  /** Reads entities of the graph (an accident's detection boxes). */
  entities: EntitySource;
  now: () => number;
  /** The citizen report and alert routes' parts. */
  reports: ReportsApi;
}
