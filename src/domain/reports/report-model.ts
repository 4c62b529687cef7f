/**
 * The citizen report model (docs/reports-and-alerts.md): the values every form of submission maps to.
 */

/** Report kinds of the stored model (`type`); REST `category` takes the same values. */
export const REPORT_TYPES = [
  "accident",
  "congestion",
  "road_damage",
  "illegal_parking",
  "traffic_light",
  "flooding",
  "other",
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Report severities of the stored model. */
export const REPORT_SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type ReportSeverity = (typeof REPORT_SEVERITIES)[number];

/** Accident severities, least to most severe. */
export const ACCIDENT_SEVERITIES = ["minor", "moderate", "severe", "critical"] as const;
export type AccidentSeverity = (typeof ACCIDENT_SEVERITIES)[number];

/** True for a report kind of the stored model. */
export const isReportType = (s: string): s is ReportType => (REPORT_TYPES as readonly string[]).includes(s);

const isAccidentSeverity = (s: string): s is AccidentSeverity =>
  (ACCIDENT_SEVERITIES as readonly string[]).includes(s);

/** A severity of either scale as a report severity: minor -> low, moderate -> medium, severe -> high. */
export function reportSeverityOf(s: ReportSeverity | AccidentSeverity): ReportSeverity {
  return isAccidentSeverity(s) ? REPORT_SEVERITIES[ACCIDENT_SEVERITIES.indexOf(s)] : s;
}

/** Report severity -> accident severity (docs/reports-and-alerts.md "Review"). */
export const ACCIDENT_SEVERITY_OF: Record<ReportSeverity, AccidentSeverity> = {
  low: "minor",
  medium: "moderate",
  high: "severe",
  critical: "critical",
};

/** The stored model's states (docs/reports-and-alerts.md "Review"). */
export type ReportStatus = "pending" | "verified" | "resolved" | "rejected";
/** Verification state shown by REST A (`verification_status`). */
export type VerificationStatus = "pending" | "confirmed" | "rejected";
/** Review priority (B `priority`): `none` once verified or decided. */
export type ReviewPriority = "none" | "normal" | "high";

/** Where a report came from (stored model `metadata.source`). */
export type ReportSource = "web" | "mobile" | "api";

/** Who reported. `principalId` is the authenticated caller (unknown while auth is off). */
export interface Reporter {
  name?: string;
  phone?: string;
  email?: string;
  isAnonymous: boolean;
  principalId?: string;
}

/**
 * A submission as every face hands it to the domain (checked by report-rules.ts), before images are
 * processed and the entity is written.
 */
export interface ReportInput {
  type: ReportType;
  title?: string;
  description: string;
  lat: number;
  lon: number;
  severity: ReportSeverity;
  reporter: Reporter;
  /** Raw image bytes (decoded base64 or uploaded files), at most 5. */
  images: Buffer[];
  source: ReportSource;
  vehiclesInvolved?: number;
  injuries?: number;
  deviceInfo?: string;
}

/** One piece of evidence behind a verification score. */
export interface Evidence {
  factor: string;
  weight: number;
  detail: string;
}

/** A stored report, read back from its CitizenReport entity. */
export interface CitizenReport {
  /** Local id (the part after urn:ngsi-ld:CitizenReport:). */
  id: string;
  entityId: string;
  type: ReportType;
  title?: string;
  description: string;
  lat: number;
  lon: number;
  address?: string;
  severity: ReportSeverity;
  status: ReportStatus;
  verificationStatus: VerificationStatus;
  priority: ReviewPriority;
  /** Verification score in [0, 1]; absent until verification ran. */
  score?: number;
  evidence: Evidence[];
  images: string[];
  reporter: Reporter;
  source: ReportSource;
  reportedAt: string;
  verifiedAt?: string;
  resolvedAt?: string;
  nearbyCameras: string[];
  linkedAccidentId?: string;
  duplicateOf?: string;
  vehiclesInvolved?: number;
  injuries?: number;
}

/** Entity id of a report. */
export const reportEntityId = (localId: string): string => `urn:ngsi-ld:CitizenReport:${localId}`;
/** Local id of a report entity id (the id itself when it has no report prefix). */
export const reportLocalId = (entityId: string): string =>
  entityId.replace(/^urn:ngsi-ld:CitizenReport:/, "");
