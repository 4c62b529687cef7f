import type Router from "@koa/router";
import { parseAccidentReportJson, parseCitizenReportJson } from "../../domain/reports/report-input";
import {
  isMultipart,
  reportForm,
  reportJson,
  reportModelBody,
  reportStatusBody,
  withReporter,
} from "../rest/report-submission";
import type { ReportsApi } from "../rest/reports-api";

/**
 * Citizen reports of REST A (interface spec §4.3, §4.7): POST /citizen-reports (JSON or the form),
 * POST /accidents/report, GET /citizen-reports/{id}.
 */
export function registerCitizenReportRoutesA(router: Router, api: ReportsApi): void {
  router.post("/citizen-reports", async (ctx) => {
    if (isMultipart(ctx)) {
      const res = await api.submission.submit(await reportForm(ctx));
      ctx.status = 201;
      ctx.body = reportModelBody(res.report);
      return;
    }
    const input = withReporter(ctx, parseCitizenReportJson(await reportJson(ctx), "a"));
    const res = await api.submission.submit(input);
    ctx.status = 201;
    ctx.body = {
      id: res.report.id,
      status: "submitted",
      verification_status: "pending",
      estimated_verification_time: res.estimatedVerificationTime,
    };
  });
  router.post("/accidents/report", async (ctx) => {
    const input = withReporter(ctx, parseAccidentReportJson(await reportJson(ctx), "a-accident"));
    const res = await api.submission.submit(input);
    ctx.status = 201;
    ctx.body = {
      id: res.report.id,
      status: "submitted",
      verification_status: "pending",
      message: res.report.duplicateOf
        ? "Report received; it matches a report or accident already known and is linked to it"
        : `Report received; verification expected within ${res.estimatedVerificationTime}`,
    };
  });
  router.get("/citizen-reports/:id", async (ctx) => {
    ctx.body = reportStatusBody(await api.review.report(ctx.params.id));
  });
}
