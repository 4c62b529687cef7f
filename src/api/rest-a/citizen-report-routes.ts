import { ACCIDENT_A, REPORT_A } from "../rest/report-inputs";
import { ACCIDENT_REPORTED_A, reportSubmitted } from "../rest/report-schemas";
import { reportAccidentRoute, reportStatusRoute, submitReportRoute } from "../rest/report-routes";
import type { ReportsApi } from "../rest/reports-api";
import type { RouteSpec } from "../rest/schema-route";

/**
 * Citizen reports of REST A (docs/reports-and-alerts.md "Submitting a report"): POST /citizen-reports
 * (JSON or the form), POST /accidents/report, GET /citizen-reports/{id}.
 */
export function citizenReportRoutesA(api: ReportsApi): RouteSpec[] {
  return [
    submitReportRoute(
      api,
      {
        body: REPORT_A,
        answers: "id, status, verification_status, estimated_verification_time",
        response: reportSubmitted("a"),
      },
      (res) => ({
        id: res.report.id,
        status: "submitted",
        verification_status: "pending",
        estimated_verification_time: res.estimatedVerificationTime,
      }),
    ),
    reportAccidentRoute(
      api,
      "/accidents/report",
      { body: ACCIDENT_A, response: ACCIDENT_REPORTED_A },
      (res) => ({
        id: res.report.id,
        status: "submitted",
        verification_status: "pending",
        message: res.report.duplicateOf
          ? "Report received; it matches a report or accident already known and is linked to it"
          : `Report received; verification expected within ${res.estimatedVerificationTime}`,
      }),
    ),
    reportStatusRoute(api),
  ];
}
