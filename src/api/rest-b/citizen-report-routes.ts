import { parseAccidentReportJson, parseCitizenReportJson } from "../../domain/reports/report-input";
import {
  ACCIDENT_CREATED_B,
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
 * Citizen reports of REST B (interface spec §4.3, §4.7): POST /citizen-reports -> `{id, status,
 * verification_status, priority}` (or the stored model for the form), POST /accidents -> `{id, status:
 * "created", verification_status}`, GET /citizen-reports/{id}.
 */
export function citizenReportRoutesB(api: ReportsApi): RouteSpec[] {
  return [
    {
      method: "post",
      path: "/citizen-reports",
      operationId: "submitCitizenReport",
      summary:
        "Submit a citizen report: JSON (answers id, status, verification_status, priority) or the form (answers the stored report)",
      tag: "citizen-reports",
      access: "viewer",
      ownBody: { "application/json": reportJsonBody("b"), "multipart/form-data": REPORT_FORM },
      status: 201,
      response: reportSubmitted("b"),
      errors: SUBMISSION_ERRORS,
      handler: async (ctx) => {
        if (isMultipart(ctx))
          return reportModelBody((await api.submission.submit(await reportForm(ctx))).report);
        const res = await api.submission.submit(
          withReporter(ctx, parseCitizenReportJson(await reportJson(ctx), "b")),
        );
        return {
          id: res.report.id,
          status: "submitted",
          verification_status: "pending",
          priority: res.expectedPriority,
        };
      },
    },
    {
      method: "post",
      path: "/accidents",
      operationId: "reportAccident",
      summary: "Report an accident (a citizen report of type accident)",
      tag: "citizen-reports",
      access: "viewer",
      ownBody: { "application/json": accidentReportBody("b") },
      status: 201,
      response: ACCIDENT_CREATED_B,
      errors: SUBMISSION_ERRORS,
      handler: async (ctx) => {
        const res = await api.submission.submit(
          withReporter(ctx, parseAccidentReportJson(await reportJson(ctx), "b-accident")),
        );
        return { id: res.report.id, status: "created", verification_status: "pending" };
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
