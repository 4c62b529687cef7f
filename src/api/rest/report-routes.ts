import type { Context } from "koa";
import { parseAccidentReportJson, parseCitizenReportJson } from "../../domain/reports/report-input";
import type { SubmissionResult } from "../../domain/reports/submission-service";
import {
  accidentReportBody,
  REPORT_FORM,
  REPORT_STATUS,
  reportJsonBody,
  reportSubmitted,
} from "./report-schemas";
import {
  isMultipart,
  reportForm,
  reportJson,
  reportModelBody,
  reportStatusBody,
  SUBMISSION_ERRORS,
  withReporter,
} from "./report-submission";
import type { ReportsApi } from "./reports-api";
import type { JsonSchema, RouteSpec } from "./schema-route";

type Variant = "a" | "b";

/**
 * `POST /citizen-reports` of a variant (docs/reports-and-alerts.md "Submitting a report"): the JSON body
 * of that variant, answered by `answer`, or the form-based submission, answered with the stored report model.
 */
export function submitReportRoute(
  api: ReportsApi,
  variant: Variant,
  fields: string,
  answer: (res: SubmissionResult) => Record<string, unknown>,
): RouteSpec {
  return {
    method: "post",
    path: "/citizen-reports",
    operationId: "submitCitizenReport",
    summary: `Submit a citizen report: JSON (answers ${fields}) or the form (answers the stored report)`,
    tag: "citizen-reports",
    access: "viewer",
    ownBody: { "application/json": reportJsonBody(variant), "multipart/form-data": REPORT_FORM },
    status: 201,
    response: reportSubmitted(variant),
    errors: SUBMISSION_ERRORS,
    handler: async (ctx: Context) => {
      if (isMultipart(ctx))
        return reportModelBody((await api.submission.submit(await reportForm(ctx))).report);
      const input = withReporter(ctx, parseCitizenReportJson(await reportJson(ctx), variant));
      return answer(await api.submission.submit(input));
    },
  };
}

/** The accident report of a variant (A `POST /accidents/report`, B `POST /accidents`), of type accident. */
export function reportAccidentRoute(
  api: ReportsApi,
  variant: Variant,
  path: string,
  response: JsonSchema,
  answer: (res: SubmissionResult) => Record<string, unknown>,
): RouteSpec {
  return {
    method: "post",
    path,
    operationId: "reportAccident",
    summary: "Report an accident (a citizen report of type accident)",
    tag: "citizen-reports",
    access: "viewer",
    ownBody: { "application/json": accidentReportBody(variant) },
    status: 201,
    response,
    errors: SUBMISSION_ERRORS,
    handler: async (ctx: Context) => {
      const input = withReporter(ctx, parseAccidentReportJson(await reportJson(ctx), `${variant}-accident`));
      return answer(await api.submission.submit(input));
    },
  };
}

/** `GET /citizen-reports/{id}` (docs/reports-and-alerts.md "Review"), the same in both variants. */
export function reportStatusRoute(api: ReportsApi): RouteSpec {
  return {
    method: "get",
    path: "/citizen-reports/:id",
    operationId: "getCitizenReportStatus",
    summary: "A report's status: verification, the linked accident, review priority, duplicate",
    tag: "citizen-reports",
    access: "viewer",
    params: { id: "Report id" },
    response: REPORT_STATUS,
    handler: async (_ctx, { params }) => reportStatusBody(await api.review.report(params.id)),
  };
}
