import { randomUUID } from "node:crypto";
import { badRequest, notFound } from "../../errors";
import type { KeyedLock } from "../../ngsi-ld/entities/keyed-lock";
import type { CityPlaces } from "../city-places";
import { GraphAccess, objectsOf } from "../graph-access";
import { TRAFFIC_ENTITY_CONTEXT } from "../vocabulary";
import { accidentForReport } from "./accident-from-report";
import { attr, reportOf } from "./report-entity";
import { reportEntityId, type CitizenReport } from "./report-model";
import { transition } from "./report-transitions";

/** An operator's decision on a report. */
export interface ReviewDecision {
  decision: "confirm" | "reject";
  note?: string;
  /** Who decided (the principal's id; "anonymous" while authentication is off). */
  reviewer: string;
}

const PRIORITY_RANK = { high: 0, normal: 1, none: 2 } as const;

/**
 * The operators' review queue (docs/reports-and-alerts.md "Review"): the reports that
 * verification left pending, high priority first, then oldest first, with the evidence behind each
 * score; and the decision on one, which follows the transitions table (409 otherwise). Confirming an
 * accident report creates or links a TrafficAccident; every decision is a ReportReview entity.
 */
export class ReviewService {
  constructor(
    private readonly graph: GraphAccess,
    private readonly places: CityPlaces,
    private readonly locks: KeyedLock,
  ) {}

  /** The queue: pending, unduplicated, scored or not, by priority then age. */
  async queue(): Promise<CitizenReport[]> {
    const all = (await this.graph.select({ type: "CitizenReport" })).map(reportOf);
    return all
      .filter((r) => r.status === "pending" && r.verificationStatus === "pending" && !r.duplicateOf)
      .sort(
        (a, b) =>
          PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
          Date.parse(a.reportedAt) - Date.parse(b.reportedAt),
      );
  }

  /** Every report (newest first, at most the configured page cap). */
  async all(): Promise<CitizenReport[]> {
    const all = (await this.graph.select({ type: "CitizenReport" })).map(reportOf);
    return all.sort((a, b) => b.reportedAt.localeCompare(a.reportedAt));
  }

  /** One report by local or entity id; 404 if absent. */
  async report(id: string): Promise<CitizenReport> {
    const entityId = id.startsWith("urn:") ? id : reportEntityId(id);
    const e = await this.graph.read(entityId);
    if (!e || !String(e.type).includes("CitizenReport"))
      throw notFound(`Citizen report ${id} does not exist`, { id });
    return reportOf(e);
  }

  /** Applies a decision; 409 when the report was decided already. Returns the report after it. */
  async decide(id: string, d: ReviewDecision): Promise<CitizenReport> {
    if (d.decision !== "confirm" && d.decision !== "reject")
      throw badRequest("decision must be confirm or reject", {
        parameter: "decision",
        value: d.decision,
        expected: "confirm, reject",
      });
    const first = await this.report(id);
    return this.locks.run(first.entityId, async () => {
      const r = await this.report(first.entityId);
      const next = transition(r.status, r.verificationStatus, d.decision);
      const now = new Date().toISOString();
      const attrs: Record<string, unknown> = {
        status: attr.prop(next.status),
        verificationStatus: attr.prop(next.verificationStatus),
        reviewPriority: attr.prop("none"),
      };
      let accidentId: string | undefined;
      if (d.decision === "confirm") {
        attrs.verifiedAt = attr.prop(attr.dt(now));
        if (r.type === "accident") {
          const district = await this.places.districtAt(r.lon, r.lat);
          accidentId = await accidentForReport(this.graph, r, district?.entityId, r.score ?? 1);
          attrs.refAccident = attr.rel(accidentId);
        }
      }
      await this.graph.merge(r.entityId, attrs);
      await this.graph.create({
        id: `urn:ngsi-ld:ReportReview:${randomUUID()}`,
        type: "ReportReview",
        refReport: attr.rel(r.entityId),
        decision: attr.prop(d.decision),
        reviewer: attr.prop(d.reviewer),
        decidedAt: attr.prop(attr.dt(now)),
        ...(d.note ? { note: attr.prop(d.note) } : {}),
        ...(accidentId ? { refAccident: attr.rel(accidentId) } : {}),
        "@context": [...TRAFFIC_ENTITY_CONTEXT],
      });
      await this.settleDuplicates(r, attrs);
      return this.report(r.entityId);
    });
  }

  /** The reports linked as duplicates of `r` take its decision (they were never queued on their own). */
  private async settleDuplicates(r: CitizenReport, attrs: Record<string, unknown>): Promise<void> {
    const near = await this.graph.select({
      type: "CitizenReport",
      near: { lon: r.lon, lat: r.lat, metres: 250 },
    });
    for (const e of near) {
      if (!objectsOf(e, "refDuplicateOf").includes(r.entityId)) continue;
      const dup = reportOf(e);
      if (dup.status !== "pending") continue;
      await this.graph.merge(dup.entityId, attrs);
    }
  }
}
