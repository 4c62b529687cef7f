import type Router from "@koa/router";
import type { Context } from "koa";
import { REPORT_TYPES, type CitizenReport } from "../../domain/reports/report-model";
import { AppError, badRequest } from "../../errors";
import { readBody } from "../http/read-body";
import { serverOrigin } from "../http/server-origin";
import { withReporter } from "../rest/report-submission";
import type { ReportsApi } from "../rest/reports-api";
import { checker, requestAjv } from "../rest/request-validation";
import { isMultipart, readForm } from "../rest/route-body";
import { SERVICE_REQUEST, SERVICE_REQUEST_FILES, serviceRequestReport } from "./open311-request";

const SERVICE_NAMES: Record<string, string> = {
  accident: "Traffic accident",
  congestion: "Traffic congestion",
  road_damage: "Road damage",
  illegal_parking: "Illegal parking",
  traffic_light: "Traffic light fault",
  flooding: "Flooded road",
  other: "Other traffic problem",
};

/** GeoReport v2 `service_request` of a report: open while pending or verified, closed once decided. */
function request(r: CitizenReport, base: string): Record<string, unknown> {
  return {
    service_request_id: r.id,
    status: r.status === "pending" || r.status === "verified" ? "open" : "closed",
    status_notes: `${r.status}; verification ${r.verificationStatus}`,
    service_name: SERVICE_NAMES[r.type],
    service_code: r.type,
    description: r.description,
    agency_responsible: "Ho Chi Minh City traffic operations",
    service_notice: null,
    requested_datetime: r.reportedAt,
    updated_datetime: r.verifiedAt ?? r.resolvedAt ?? r.reportedAt,
    expected_datetime: null,
    address: r.address ?? null,
    address_id: null,
    zipcode: null,
    lat: r.lat,
    long: r.lon,
    media_url: r.images[0] ? base + r.images[0] : null,
  };
}

/**
 * The fields of a POST (application/x-www-form-urlencoded, or multipart with files in `media`); an empty
 * field counts as absent.
 */
async function postFields(ctx: Context): Promise<{ fields: Record<string, string>; files: Buffer[] }> {
  if (isMultipart(ctx)) return readForm(ctx, SERVICE_REQUEST_FILES, "media");
  if (!ctx.is("application/x-www-form-urlencoded"))
    throw new AppError(
      "UnsupportedMediaType",
      "Send application/x-www-form-urlencoded or multipart/form-data",
    );
  const fields: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(await readBody(ctx, 64 * 1024)))
    if (!(k in fields) && v !== "") fields[k] = v;
  return { fields, files: [] };
}

/**
 * Open311 GeoReport v2 (http://wiki.open311.org/GeoReport_v2) over the same CitizenReport entities: the
 * report kinds as services, reports as service requests, so existing 311 apps submit and follow reports.
 * `.json` formats only.
 */
export function registerOpen311Routes(router: Router, api: ReportsApi): void {
  const serviceRequest = checker(requestAjv(true), SERVICE_REQUEST, "form");
  router.get("/services.json", (ctx) => {
    ctx.body = REPORT_TYPES.map((t) => ({
      service_code: t,
      service_name: SERVICE_NAMES[t],
      description: `Report: ${SERVICE_NAMES[t].toLowerCase()}`,
      metadata: false,
      type: "realtime",
      keywords: t.replace("_", " "),
      group: "traffic",
    }));
  });
  router.get("/requests.json", async (ctx) => {
    const q = ctx.query as Record<string, string | undefined>;
    const ids = q.service_request_id?.split(",");
    const codes = q.service_code?.split(",");
    const start = q.start_date ? Date.parse(q.start_date) : -Infinity;
    const end = q.end_date ? Date.parse(q.end_date) : Infinity;
    if (Number.isNaN(start) || Number.isNaN(end))
      throw badRequest("start_date and end_date must be ISO 8601");
    const base = serverOrigin(ctx);
    ctx.body = (await api.review.all())
      .filter((r) => (!ids || ids.includes(r.id)) && (!codes || codes.includes(r.type)))
      .filter((r) => Date.parse(r.reportedAt) >= start && Date.parse(r.reportedAt) <= end)
      .map((r) => request(r, base))
      .filter((r) => !q.status || q.status.split(",").includes(r.status as string))
      .slice(0, 1000);
  });
  router.get("/requests/:id.json", async (ctx) => {
    ctx.body = [request(await api.review.report(ctx.params.id), serverOrigin(ctx))];
  });
  router.post("/requests.json", async (ctx) => {
    const { fields, files } = await postFields(ctx);
    const input = serviceRequestReport(serviceRequest(fields), files);
    const res = await api.submission.submit(withReporter(ctx, input));
    ctx.status = 201;
    ctx.body = [
      {
        service_request_id: res.report.id,
        service_notice: `Verification within ${res.estimatedVerificationTime}`,
        account_id: null,
      },
    ];
  });
}
