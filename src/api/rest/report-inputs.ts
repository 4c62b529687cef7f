import {
  reportSeverityOf,
  type ReportInput,
  type ReportType,
  type Reporter,
} from "../../domain/reports/report-model";
import { decodeBase64Images } from "../http/base64-images";
import type { Schema } from "./json-schema";
import {
  ACCIDENT_REPORT_A,
  ACCIDENT_REPORT_B,
  REPORT_JSON_A,
  REPORT_JSON_B,
  type AccidentReportA,
  type AccidentReportB,
  type ReportFormFields,
  type ReportJsonA,
  type ReportJsonB,
} from "./report-requests";

/**
 * Each REST report body, once its schema (report-requests.ts) has validated it, as the domain's one
 * {@link ReportInput}: the face's names and scales become the domain's, base64 images their bytes.
 */

/** A JSON report body: the schema the route validates it with, and the domain's input it makes. */
export interface ReportBody<B> {
  schema: Schema<B>;
  toInput(body: B): ReportInput;
}

type ReporterBody = string | { name?: string; phone?: string; email?: string; is_anonymous?: boolean };

/** The reporter of a body; B's `contact` is an email address when it has an @, else a phone number. */
function reporterOf(r: ReporterBody | undefined, contact?: string): Reporter {
  if (r === undefined) return { isAnonymous: true };
  if (typeof r === "string") return { name: r, isAnonymous: false };
  const byContact =
    contact === undefined ? {} : contact.includes("@") ? { email: contact } : { phone: contact };
  return { name: r.name, phone: r.phone, email: r.email, ...byContact, isAnonymous: r.is_anonymous === true };
}

/** What every JSON body gives alike. */
function fromJson(
  b: Omit<ReportJsonA, "category" | "reporter">,
  type: ReportType,
  reporter: Reporter,
): ReportInput {
  return {
    type,
    title: b.title,
    description: b.description,
    lat: b.location.lat,
    lon: b.location.lon,
    severity: reportSeverityOf(b.severity ?? "medium"),
    reporter,
    images: decodeBase64Images(b.images ?? []),
    source: b.source ?? "api",
  };
}

/** A's POST /citizen-reports. */
export const REPORT_A: ReportBody<ReportJsonA> = {
  schema: REPORT_JSON_A,
  toInput: (b) => fromJson(b, b.category, reporterOf(b.reporter)),
};

/** B's POST /citizen-reports. */
export const REPORT_B: ReportBody<ReportJsonB> = {
  schema: REPORT_JSON_B,
  toInput: (b) =>
    fromJson(
      b,
      b.category,
      reporterOf(b.reporter, typeof b.reporter === "object" ? b.reporter.contact : undefined),
    ),
};

/** A's POST /accidents/report. */
export const ACCIDENT_A: ReportBody<AccidentReportA> = {
  schema: ACCIDENT_REPORT_A,
  toInput: (b) => ({
    ...fromJson(b, "accident", reporterOf(b.reporter)),
    vehiclesInvolved: b.vehicles_involved,
    injuries: b.injuries,
  }),
};

/** B's POST /accidents. */
export const ACCIDENT_B: ReportBody<AccidentReportB> = {
  schema: ACCIDENT_REPORT_B,
  toInput: (b) => fromJson(b, "accident", reporterOf(b.reported_by)),
};

/** The form-based submission: its fields and its image files. */
export function formReport(f: ReportFormFields, files: Buffer[]): ReportInput {
  const anonymous = f.is_anonymous === "true" || f.is_anonymous === "1";
  return {
    type: f.type,
    title: f.title,
    description: f.description,
    lat: f.latitude,
    lon: f.longitude,
    severity: f.severity ?? "medium",
    reporter: {
      name: f.reporter_name,
      phone: f.reporter_phone,
      email: f.reporter_email,
      isAnonymous: anonymous,
    },
    images: files,
    source: f.source ?? "web",
    deviceInfo: f.device_info,
  };
}
