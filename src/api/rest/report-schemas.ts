import { REPORT_SEVERITIES, REPORT_TYPES } from "../../domain/reports/report-model";
import { MAX_IMAGES } from "../../domain/reports/report-rules";
import { arr, closed, int, nullable, num, oneOfStrings, str, time, type JsonSchema } from "./json-schema";

/**
 * The answers of the citizen report and review routes of both REST variants (docs/rest.md,
 * docs/reports-and-alerts.md "Review") as closed schemas, so the OpenAPI documents say exactly what is
 * sent. The request bodies are in report-requests.ts.
 */

const TYPE = oneOfStrings(REPORT_TYPES);
const SEVERITY = oneOfStrings(REPORT_SEVERITIES);
const PRIORITY = oneOfStrings(["none", "normal", "high"]);

/** A's answer to a JSON POST /citizen-reports. */
const SUBMITTED_A = closed({
  id: str,
  status: { const: "submitted" },
  verification_status: { const: "pending" },
  estimated_verification_time: { ...str, description: 'e.g. "5 minutes"' },
});

/** B's answer to a JSON POST /citizen-reports. */
const SUBMITTED_B = closed({
  id: str,
  status: { const: "submitted" },
  verification_status: { const: "pending" },
  priority: PRIORITY,
});

/** The stored report model, the answer to the form. */
export const REPORT_MODEL = closed({
  id: str,
  type: TYPE,
  title: nullable(str),
  description: str,
  location: closed(
    { type: { const: "Point" }, coordinates: { ...arr(num), minItems: 2, maxItems: 2 }, address: str },
    ["address"],
  ),
  images: arr(str, MAX_IMAGES),
  severity: SEVERITY,
  status: oneOfStrings(["pending", "verified", "resolved", "rejected"]),
  reporter: closed({ name: str, phone: str, email: str, isAnonymous: { type: "boolean" } }, [
    "name",
    "phone",
    "email",
  ]),
  metadata: closed({
    submittedAt: time,
    verifiedAt: nullable(time),
    resolvedAt: nullable(time),
    source: oneOfStrings(["web", "mobile", "api"]),
  }),
  nearby_cameras: arr(str),
});

/** POST /citizen-reports: the JSON answer of the variant, or the stored model for the form. */
export const reportSubmitted = (variant: "a" | "b"): JsonSchema => ({
  oneOf: [variant === "a" ? SUBMITTED_A : SUBMITTED_B, REPORT_MODEL],
});

/** A's answer to POST /accidents/report. */
export const ACCIDENT_REPORTED_A = closed({
  id: str,
  status: { const: "submitted" },
  verification_status: { const: "pending" },
  message: str,
});

/** B's answer to POST /accidents. */
export const ACCIDENT_CREATED_B = closed({
  id: str,
  status: { const: "created" },
  verification_status: { const: "pending" },
});

/** The report status (plus `priority` and `duplicate_of`). */
export const REPORT_STATUS = closed({
  id: str,
  status: oneOfStrings(["submitted", "verified", "resolved", "rejected"]),
  verification_status: oneOfStrings(["pending", "confirmed", "rejected"]),
  verified_at: nullable(time),
  linked_accident_id: nullable(str),
  priority: PRIORITY,
  duplicate_of: nullable(str),
});

/** The reporter of a report under review, contacts included (operators only: docs/auth.md). */
const REVIEWED_REPORTER = closed({ is_anonymous: { type: "boolean" }, name: str, phone: str, email: str }, [
  "name",
  "phone",
  "email",
]);

/** GET /reviews: the pending reports, high priority first then oldest, with their evidence and reporter. */
export const REVIEW_QUEUE = closed({
  total: int,
  reviews: arr(
    closed({
      report_id: str,
      type: TYPE,
      title: nullable(str),
      description: str,
      severity: SEVERITY,
      location: closed({ lat: num, lon: num, address: nullable(str) }),
      images: arr(str),
      priority: PRIORITY,
      score: nullable({ ...num, minimum: 0, maximum: 1 }),
      evidence: arr(closed({ factor: str, weight: num, detail: str })),
      reported_at: time,
      nearby_cameras: arr(str),
      reporter: REVIEWED_REPORTER,
    }),
  ),
});
