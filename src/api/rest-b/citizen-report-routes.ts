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
 * Citizen reports of REST B (interface spec §4.3, §4.7): POST /citizen-reports -> `{id, status,
 * verification_status, priority}` (or the stored model for the form), POST /accidents -> `{id, status:
 * "created", verification_status}`, GET /citizen-reports/{id}.
 */
export function registerCitizenReportRoutesB(router: Router, api: ReportsApi): void {
  router.post("/citizen-reports", async (ctx) => {
    if (isMultipart(ctx)) {
      const res = await api.submission.submit(await reportForm(ctx));
      ctx.status = 201;
      ctx.body = reportModelBody(res.report);
      return;
    }
    const res = await api.submission.submit(
      withReporter(ctx, parseCitizenReportJson(await reportJson(ctx), "b")),
    );
    ctx.status = 201;
    ctx.body = {
      id: res.report.id,
      status: "submitted",
      verification_status: "pending",
      priority: res.expectedPriority,
    };
  });
  router.post("/accidents", async (ctx) => {
    const res = await api.submission.submit(
      withReporter(ctx, parseAccidentReportJson(await reportJson(ctx), "b-accident")),
    );
    ctx.status = 201;
    ctx.body = { id: res.report.id, status: "created", verification_status: "pending" };
  });
  router.get("/citizen-reports/:id", async (ctx) => {
    ctx.body = reportStatusBody(await api.review.report(ctx.params.id));
  });
}
