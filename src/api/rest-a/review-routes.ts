import type Router from "@koa/router";
import { badRequest } from "../../errors";
import { parseJson, readBody } from "../http/read-body";
import { requestOf } from "../http/request-context";
import { reportStatusBody } from "../rest/report-submission";
import { requireOperator, type ReportsApi } from "../rest/reports-api";

/**
 * The operators' review queue (decisions.md "Citizen reports and their review"): GET /reviews, high
 * priority first then oldest, with the evidence behind each score; POST /reviews/{report_id}
 * `{decision: "confirm" | "reject", note}` -> the report's status; 409 when it was decided already.
 */
export function registerReviewRoutes(router: Router, api: ReportsApi, maxBodyBytes: number): void {
  router.get("/reviews", async (ctx) => {
    requireOperator(ctx);
    const queue = await api.review.queue();
    ctx.body = {
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
      })),
    };
  });
  router.post("/reviews/:id", async (ctx) => {
    requireOperator(ctx);
    const body = parseJson(await readBody(ctx, maxBodyBytes)) as Record<string, unknown> | null;
    if (!body || typeof body !== "object") throw badRequest("The body must be a JSON object");
    const note = body.note;
    if (note !== undefined && (typeof note !== "string" || note.length > 2000))
      throw badRequest("note must be a string of at most 2000 characters", {
        parameter: "note",
        value: note,
        expected: "string",
      });
    const r = await api.review.decide(ctx.params.id, {
      decision: body.decision as "confirm",
      note: note as string | undefined,
      reviewer: requestOf(ctx).principal?.id ?? "anonymous",
    });
    ctx.body = reportStatusBody(r);
  });
}
