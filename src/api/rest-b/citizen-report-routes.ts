import { ACCIDENT_B, REPORT_B } from "../rest/report-inputs";
import { ACCIDENT_CREATED_B, reportSubmitted } from "../rest/report-schemas";
import { reportAccidentRoute, reportStatusRoute, submitReportRoute } from "../rest/report-routes";
import type { ReportsApi } from "../rest/reports-api";
import type { RouteSpec } from "../rest/schema-route";

/**
 * Citizen reports of REST B (docs/reports-and-alerts.md "Submitting a report"): POST /citizen-reports ->
 * `{id, status, verification_status, priority}` (or the stored model for the form), POST /accidents ->
 * `{id, status: "created", verification_status}`, GET /citizen-reports/{id}.
 */
export function citizenReportRoutesB(api: ReportsApi): RouteSpec[] {
  return [
    submitReportRoute(
      api,
      {
        body: REPORT_B,
        answers: "id, status, verification_status, priority",
        response: reportSubmitted("b"),
      },
      async (res) => ({
        id: res.report.id,
        status: "submitted",
        verification_status: "pending",
        priority: await api.submission.expectedPriority(res.report),
      }),
    ),
    reportAccidentRoute(api, "/accidents", { body: ACCIDENT_B, response: ACCIDENT_CREATED_B }, (res) => ({
      id: res.report.id,
      status: "created",
      verification_status: "pending",
    })),
    reportStatusRoute(api),
  ];
}
