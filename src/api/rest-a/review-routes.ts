import type { Reporter } from "../../domain/reports/report-model";
import { requestOf } from "../http/request-context";
import { REVIEW_DECISION } from "../rest/report-requests";
import { REPORT_STATUS, REVIEW_QUEUE } from "../rest/report-schemas";
import { reportStatusBody } from "../rest/report-submission";
import { requireOperator, type ReportsApi } from "../rest/reports-api";
import { route, type RouteSpec } from "../rest/schema-route";

/** The reporter as an operator sees it: its contacts unless the report is anonymous. */
function reviewedReporter(r: Reporter): Record<string, unknown> {
  if (r.isAnonymous) return { is_anonymous: true };
  const out: Record<string, unknown> = { is_anonymous: false };
  if (r.name) out.name = r.name;
  if (r.phone) out.phone = r.phone;
  if (r.email) out.email = r.email;
  return out;
}

/**
 * The operators' review queue (docs/reports-and-alerts.md "Review"): GET /reviews, high
 * priority first then oldest, with the evidence behind each score and the reporter's contacts; POST /reviews/{report_id}
 * `{decision: "confirm" | "reject", note}` -> the report's status; 409 when it was decided already.
 */
export function reviewRoutes(api: ReportsApi): RouteSpec[] {
  return [
    {
      method: "get",
      path: "/reviews",
      operationId: "listReviews",
      summary: "Reports waiting for review, high priority first then oldest, with each score's evidence",
      tag: "reviews",
      access: "operator",
      response: REVIEW_QUEUE,
      handler: async (ctx) => {
        requireOperator(ctx);
        const queue = await api.review.queue();
        return {
          total: queue.length,
          reviews: queue.map((r) => ({
            report_id: r.id,
            type: r.type,
            title: r.title ?? null,
            description: r.description,
            severity: r.severity,
            location: { lat: r.lat, lon: r.lon, address: r.address ?? null },
            images: r.images,
            priority: r.priority,
            score: r.score ?? null,
            evidence: r.evidence,
            reported_at: r.reportedAt,
            nearby_cameras: r.nearbyCameras.map((c) => c.replace(/^urn:ngsi-ld:TrafficCamera:/, "")),
            reporter: reviewedReporter(r.reporter),
          })),
        };
      },
    },
    route({
      method: "post",
      path: "/reviews/:report_id",
      operationId: "decideReview",
      summary: "Confirm or reject a pending report; a confirmed accident report creates or links an accident",
      tag: "reviews",
      access: "operator",
      params: { report_id: "Report id" },
      body: REVIEW_DECISION,
      response: REPORT_STATUS,
      errors: { "409": "CONFLICT: the report was decided already" },
      handler: async (ctx, { params, body }) => {
        requireOperator(ctx);
        const r = await api.review.decide(params.report_id, {
          decision: body.decision,
          note: body.note,
          reviewer: requestOf(ctx).principal?.id ?? "anonymous",
        });
        return reportStatusBody(r);
      },
    }),
  ];
}
