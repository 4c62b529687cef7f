import { MAX_IMAGE_BYTES, MAX_IMAGES } from "../../domain/reports/report-rules";
import type { SubmissionResult } from "../../domain/reports/submission-service";
import type { Static } from "./json-schema";
import { formReport, type ReportBody } from "./report-inputs";
import { REPORT_FORM_FIELDS, REPORT_FORM_FILES } from "./report-requests";
import { REPORT_STATUS } from "./report-schemas";
import {
  REPORT_JSON_LIMIT,
  reportModelBody,
  reportStatusBody,
  SUBMISSION_ERRORS,
  withReporter,
} from "./report-submission";
import type { ReportsApi } from "./reports-api";
import { route, type FormBody, type JsonSchema, type RouteSpec } from "./schema-route";

/** A variant's answer to a JSON submission. */
type Answer = (res: SubmissionResult) => Promise<Record<string, unknown>> | Record<string, unknown>;

/** The form-based submission: its fields, and up to five images of 8 MiB in `images`. */
const REPORT_FORM: FormBody<Static<typeof REPORT_FORM_FIELDS>> = {
  fields: REPORT_FORM_FIELDS,
  files: { name: "images", schema: REPORT_FORM_FILES },
  limits: { files: MAX_IMAGES, fileBytes: MAX_IMAGE_BYTES, fields: 30, fieldBytes: 16 * 1024 },
};

/** What every submission route declares alike: a viewer's, 201, JSON bodies up to 5 base64 images. */
const SUBMISSION = {
  tag: "citizen-reports",
  access: "viewer",
  bodyLimit: REPORT_JSON_LIMIT,
  status: 201,
  errors: SUBMISSION_ERRORS,
} as const;

/**
 * `POST /citizen-reports` of a variant (docs/reports-and-alerts.md "Submitting a report"): the variant's
 * JSON body, answered by `answer` with the fields `answers` lists, or the form-based submission, answered
 * with the stored report model. Each is validated by its schema, then submitted as the domain's input.
 */
export function submitReportRoute<B>(
  api: ReportsApi,
  json: { body: ReportBody<B>; answers: string; response: JsonSchema },
  answer: Answer,
): RouteSpec {
  return route({
    method: "post",
    path: "/citizen-reports",
    operationId: "submitCitizenReport",
    summary: `Submit a citizen report: JSON (answers ${json.answers}) or the form (answers the stored report)`,
    ...SUBMISSION,
    body: json.body.schema,
    form: REPORT_FORM,
    response: json.response,
    handler: async (ctx, input) => {
      if (input.form) {
        const report = formReport(input.form.fields, input.form.files);
        return reportModelBody((await api.submission.submit(withReporter(ctx, report))).report);
      }
      return answer(await api.submission.submit(withReporter(ctx, json.body.toInput(input.body))));
    },
  });
}

/** The accident report of a variant (A `POST /accidents/report`, B `POST /accidents`), of type accident. */
export function reportAccidentRoute<B>(
  api: ReportsApi,
  path: string,
  json: { body: ReportBody<B>; response: JsonSchema },
  answer: Answer,
): RouteSpec {
  return route({
    method: "post",
    path,
    operationId: "reportAccident",
    summary: "Report an accident (a citizen report of type accident)",
    ...SUBMISSION,
    body: json.body.schema,
    response: json.response,
    handler: async (ctx, { body }) =>
      answer(await api.submission.submit(withReporter(ctx, json.body.toInput(body)))),
  });
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
