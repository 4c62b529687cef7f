import type { Context } from "koa";
import type { CitizenReport, ReportInput } from "../../domain/reports/report-model";
import { MAX_IMAGE_BYTES, MAX_IMAGES } from "../../domain/reports/report-rules";
import { requestOf } from "../http/request-context";

/** A JSON report body may carry 5 base64 images of 8 MiB each (docs/reports-and-alerts.md), plus the text. */
export const REPORT_JSON_LIMIT = Math.ceil((MAX_IMAGES * MAX_IMAGE_BYTES * 4) / 3) + 64 * 1024;

/** Adds the authenticated caller (auth gate's principal) to the reporter. */
export function withReporter(ctx: Context, input: ReportInput): ReportInput {
  const p = requestOf(ctx).principal;
  if (p && p.kind !== "anonymous") input.reporter.principalId = p.id;
  return input;
}

/** REST `status` of a report: `submitted` for a pending one (docs/reports-and-alerts.md "Review"). */
export function restStatus(r: CitizenReport): string {
  return r.status === "pending" ? "submitted" : r.status;
}

/**
 * A report's status answer: id, status, verification_status, verified_at, linked_accident_id, priority and
 * duplicate_of.
 */
export function reportStatusBody(r: CitizenReport): Record<string, unknown> {
  return {
    id: r.id,
    status: restStatus(r),
    verification_status: r.verificationStatus,
    verified_at: r.verifiedAt ?? null,
    linked_accident_id: r.linkedAccidentId
      ? r.linkedAccidentId.replace(/^urn:ngsi-ld:TrafficAccident:/, "")
      : null,
    priority: r.priority,
    duplicate_of: r.duplicateOf ?? null,
  };
}

/** The stored report model (the form-based submission's answer). */
export function reportModelBody(r: CitizenReport): Record<string, unknown> {
  return {
    id: r.id,
    type: r.type,
    title: r.title ?? null,
    description: r.description,
    location: { type: "Point", coordinates: [r.lon, r.lat], ...(r.address ? { address: r.address } : {}) },
    images: r.images,
    severity: r.severity,
    status: r.status,
    reporter: r.reporter.isAnonymous
      ? { isAnonymous: true }
      : { name: r.reporter.name, phone: r.reporter.phone, email: r.reporter.email, isAnonymous: false },
    metadata: {
      submittedAt: r.reportedAt,
      verifiedAt: r.verifiedAt ?? null,
      resolvedAt: r.resolvedAt ?? null,
      source: r.source,
    },
    nearby_cameras: r.nearbyCameras.map((c) => c.replace(/^urn:ngsi-ld:TrafficCamera:/, "")),
  };
}

/** The errors of a report submission beyond every route's, as the OpenAPI documents give them. */
export const SUBMISSION_ERRORS: Record<string, string> = {
  "413": "INVALID_REQUEST: the body, an image or a file is over its limit",
};
