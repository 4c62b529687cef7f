import { parseAccidentReportJson, parseCitizenReportJson } from "../../domain/reports/report-input";
import {
  ACCIDENT_REPORTED_A,
  accidentReportBody,
  REPORT_FORM,
  REPORT_STATUS,
  reportJsonBody,
  reportSubmitted,
} from "../rest/report-schemas";
import {
  isMultipart,
  reportForm,
  reportJson,
  reportModelBody,
  reportStatusBody,
  SUBMISSION_ERRORS,
  withReporter,
} from "../rest/report-submission";
import type { ReportsApi } from "../rest/reports-api";
import type { RouteSpec } from "../rest/schema-route";

/**
 * Citizen reports of REST A (interface spec §4.3, §4.7): POST /citizen-reports (JSON or the form),
 * POST /accidents/report, GET /citizen-reports/{id}.
 */
export function citizenReportRoutesA(api: ReportsApi): RouteSpec[] {
  return [
    {
      method: "post",
      path: "/citizen-reports",
      operationId: "submitCitizenReport",
      summary:
        "Submit a citizen report: JSON (answers id, status, verification_status, estimated_verification_time) or the form (answers the stored report)",
      tag: "citizen-reports",
      access: "viewer",
      ownBody: { "application/json": reportJsonBody("a"), "multipart/form-data": REPORT_FORM },
      status: 201,
      response: reportSubmitted("a"),
      errors: SUBMISSION_ERRORS,
      handler: async (ctx) => {
        if (isMultipart(ctx))
          return reportModelBody((await api.submission.submit(await reportForm(ctx))).report);
        const input = withReporter(ctx, parseCitizenReportJson(await reportJson(ctx), "a"));
        const res = await api.submission.submit(input);
        return {
          id: res.report.id,
          status: "submitted",
          verification_status: "pending",
          estimated_verification_time: res.estimatedVerificationTime,
        };
      },
    },
    {
      method: "post",
      path: "/accidents/report",
      operationId: "reportAccident",
      summary: "Report an accident (a citizen report of type accident)",
      tag: "citizen-reports",
      access: "viewer",
      ownBody: { "application/json": accidentReportBody("a") },
      status: 201,
      response: ACCIDENT_REPORTED_A,
      errors: SUBMISSION_ERRORS,
      handler: async (ctx) => {
        const input = withReporter(ctx, parseAccidentReportJson(await reportJson(ctx), "a-accident"));
        const res = await api.submission.submit(input);
        return {
          id: res.report.id,
          status: "submitted",
          verification_status: "pending",
          message: res.report.duplicateOf
            ? "Report received; it matches a report or accident already known and is linked to it"
            : `Report received; verification expected within ${res.estimatedVerificationTime}`,
        };
      },
    },
    {
      method: "get",
      path: "/citizen-reports/:id",
      operationId: "getCitizenReportStatus",
      summary: "A report's status: verification, the linked accident, review priority, duplicate",
      tag: "citizen-reports",
      access: "viewer",
      params: { id: "Report id" },
      response: REPORT_STATUS,
      handler: async (_ctx, { params }) => reportStatusBody(await api.review.report(params.id)),
    },
  ];
}
