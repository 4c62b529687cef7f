import type { Evidence, ReviewPriority } from "./report-model";

/**
 * The verification score of a citizen report (docs/reports-and-alerts.md "Verification"): a
 * base plus one documented weight per piece of evidence, clamped to [0, 1].
 *
 * | factor | weight |
 * |---|---|
 * | base (a well-formed report inside the city) | 0.30 |
 * | camera detection: a camera-detected accident (or congestion) within 500 m and 30 min | +0.45 |
 * | corroborating reports: other reports of the same kind within 500 m and 30 min | +0.15 each, at most +0.30 |
 * | images attached | +0.10 |
 * | reporter's record: share of the reporter's decided past reports that were verified | +0.20 x share (-0.10 when none was) |
 * | identified reporter (name and a phone or email) | +0.05 |
 * | anonymous | -0.10 |
 *
 * So a named reporter's photo of an accident a camera also saw scores 0.90 (verified at once); the
 * same without the photo 0.80 (normal review); an anonymous text alone 0.20 (high-priority review).
 */
export const WEIGHTS = {
  base: 0.3,
  cameraDetection: 0.45,
  corroboratingEach: 0.15,
  corroboratingMax: 0.3,
  images: 0.1,
  reporterRecord: 0.2,
  reporterAllRejected: -0.1,
  identified: 0.05,
  anonymous: -0.1,
} as const;

/** Over this the report is verified automatically. */
export const VERIFY_THRESHOLD = 0.85;
/** Over this (and not over {@link VERIFY_THRESHOLD}) manual review with normal priority; else high. */
export const REVIEW_THRESHOLD = 0.5;

/** The facts a score is computed from. */
export interface VerificationFacts {
  /** Camera detections within 500 m and 30 minutes (ids, for the evidence). */
  cameraDetections: string[];
  /** Other reports of the same kind within 500 m and 30 minutes (ids). */
  corroboratingReports: string[];
  images: number;
  /** The reporter's past reports that were decided, and how many of those were verified. */
  record: { decided: number; verified: number };
  anonymous: boolean;
  identified: boolean;
}

/** The outcome of a verification. */
export interface VerificationOutcome {
  score: number;
  evidence: Evidence[];
  /** `verified` over 0.85; else `pending` with a review priority. */
  status: "verified" | "pending";
  priority: ReviewPriority;
}

/** Scores the facts (see {@link WEIGHTS}) and routes the report by the thresholds above. */
export function scoreReport(f: VerificationFacts): VerificationOutcome {
  const evidence: Evidence[] = [{ factor: "base", weight: WEIGHTS.base, detail: "report inside the city" }];
  if (f.cameraDetections.length)
    evidence.push({
      factor: "camera_detection",
      weight: WEIGHTS.cameraDetection,
      detail: `detected by camera within 500 m and 30 min: ${f.cameraDetections.slice(0, 3).join(", ")}`,
    });
  if (f.corroboratingReports.length)
    evidence.push({
      factor: "corroborating_reports",
      weight: Math.min(WEIGHTS.corroboratingMax, WEIGHTS.corroboratingEach * f.corroboratingReports.length),
      detail: `${f.corroboratingReports.length} other report(s) within 500 m and 30 min`,
    });
  if (f.images > 0)
    evidence.push({ factor: "images", weight: WEIGHTS.images, detail: `${f.images} image(s)` });
  if (f.record.decided > 0) {
    const share = f.record.verified / f.record.decided;
    evidence.push({
      factor: "reporter_record",
      weight: share > 0 ? round(WEIGHTS.reporterRecord * share) : WEIGHTS.reporterAllRejected,
      detail: `${f.record.verified} of ${f.record.decided} past reports verified`,
    });
  }
  if (f.anonymous)
    evidence.push({ factor: "anonymous", weight: WEIGHTS.anonymous, detail: "anonymous report" });
  else if (f.identified)
    evidence.push({
      factor: "identified",
      weight: WEIGHTS.identified,
      detail: "reporter named with a contact",
    });
  const score = round(
    Math.max(
      0,
      Math.min(
        1,
        evidence.reduce((s, e) => s + e.weight, 0),
      ),
    ),
  );
  return { score, evidence, ...route(score) };
}

/** Routing: > 0.85 verified; > 0.5 normal review; otherwise high-priority review. */
export function route(score: number): { status: "verified" | "pending"; priority: ReviewPriority } {
  if (score > VERIFY_THRESHOLD) return { status: "verified", priority: "none" };
  if (score > REVIEW_THRESHOLD) return { status: "pending", priority: "normal" };
  return { status: "pending", priority: "high" };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
