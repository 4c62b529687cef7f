import { ACCIDENT_SEVERITIES, REPORT_SEVERITIES, REPORT_TYPES } from "../../domain/reports/report-model";
import { LAT_RANGE, LON_RANGE, MAX_IMAGES } from "../../domain/reports/report-input";
import { arr, closed, input, int, nullable, num, oneOfStrings, str, time } from "./json-schema";
import type { JsonSchema } from "./schema-route";

/**
 * The citizen report and review bodies of both REST variants (docs/rest.md,
 * docs/reports-and-alerts.md "Review"): the requests as the domain reads them and
 * the answers as closed schemas, so the OpenAPI documents say exactly what is sent.
 */

const TYPE = oneOfStrings(REPORT_TYPES);
const SEVERITY = oneOfStrings(REPORT_SEVERITIES);
const ANY_SEVERITY = oneOfStrings([...REPORT_SEVERITIES, ...ACCIDENT_SEVERITIES.slice(0, 3)]);
const text = (min: number, max: number): JsonSchema => ({ type: "string", minLength: min, maxLength: max });
const PRIORITY = oneOfStrings(["none", "normal", "high"]);

const POINT_IN = input(
  {
    lat: { ...num, minimum: LAT_RANGE[0], maximum: LAT_RANGE[1] },
    lon: { ...num, minimum: LON_RANGE[0], maximum: LON_RANGE[1] },
  },
  ["lat", "lon"],
);
const IMAGES_IN = { ...arr({ ...str, description: "base64 (or a data: URL)" }, MAX_IMAGES) };
/** A reporter: a name alone, or an object; none (or no name and no contact) is anonymous. */
const who = (contact: Record<string, JsonSchema>): JsonSchema => ({
  anyOf: [text(1, 100), input({ name: text(1, 100), ...contact, is_anonymous: { type: "boolean" } })],
});
const REPORTER_A = who({ phone: text(3, 30), email: text(3, 200) });
const REPORTER_B = who({ contact: { ...text(3, 200), description: "a phone number or an email address" } });

/** JSON body of POST /citizen-reports (docs/rest.md; B's reporter has `contact`). */
export const reportJsonBody = (variant: "a" | "b"): JsonSchema =>
  input(
    {
      category: TYPE,
      title: text(10, 100),
      description: text(20, 1000),
      location: POINT_IN,
      severity: ANY_SEVERITY,
      images: IMAGES_IN,
      reporter: variant === "a" ? REPORTER_A : REPORTER_B,
      source: oneOfStrings(["web", "mobile", "api"]),
    },
    ["category", "description", "location"],
  );

/** JSON body of A's POST /accidents/report and B's POST /accidents. */
export const accidentReportBody = (variant: "a" | "b"): JsonSchema =>
  input(
    {
      title: text(10, 100),
      description: text(20, 1000),
      location: POINT_IN,
      severity: ANY_SEVERITY,
      images: IMAGES_IN,
      ...(variant === "a"
        ? {
            reporter: REPORTER_A,
            vehicles_involved: { ...int, minimum: 0, maximum: 1000 },
            injuries: { ...int, minimum: 0, maximum: 1000 },
          }
        : { reported_by: REPORTER_A }),
    },
    ["description", "location"],
  );

/** The form-based submission: text fields and up to five image files in `images`. */
export const REPORT_FORM: JsonSchema = input(
  {
    type: TYPE,
    title: text(10, 100),
    description: text(20, 1000),
    latitude: { ...num, minimum: LAT_RANGE[0], maximum: LAT_RANGE[1] },
    longitude: { ...num, minimum: LON_RANGE[0], maximum: LON_RANGE[1] },
    severity: SEVERITY,
    reporter_name: text(1, 100),
    reporter_phone: text(3, 30),
    reporter_email: text(3, 200),
    is_anonymous: { type: "boolean" },
    source: oneOfStrings(["web", "mobile"]),
    device_info: text(1, 200),
    images: arr(
      { type: "string", contentMediaType: "image/*", description: "an image file (8 MiB at most)" },
      MAX_IMAGES,
    ),
  },
  ["type", "title", "description", "latitude", "longitude"],
);

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

/** POST /reviews/{report_id}. */
export const REVIEW_DECISION = input(
  { decision: oneOfStrings(["confirm", "reject"]), note: { ...str, maxLength: 2000 } },
  ["decision"],
);
