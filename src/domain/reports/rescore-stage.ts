import { typesOf } from "../../ngsi-ld/model/entity";
import type { ChangeEvent } from "../../events/change-event";
import type { DeliveryStage } from "../../events/commit-pipeline";
import { TRAFFIC_NS } from "../vocabulary";
import { GraphAccess, pointOf, valueOf } from "../graph-access";
import { reportOf } from "./report-entity";
import { EVIDENCE_METRES, EVIDENCE_WINDOW_MS } from "./report-neighbours";
import type { VerificationService } from "./verification-service";

/**
 * Late corroboration (a report waiting for review is re-scored when a camera detection or another report
 * arrives near it, docs/reports-and-alerts.md): a delivery stage that, for each new camera-detected TrafficAccident
 * or new CitizenReport, queues a new verification of the scored, still pending reports within 500 m and
 * 30 minutes. It does not hold up the acknowledgement: the re-score is advisory and the graph keeps the
 * pending report either way.
 */
export class RescoreStage implements DeliveryStage {
  constructor(
    private readonly graph: GraphAccess,
    private readonly verification: VerificationService,
    private readonly log: (msg: string, fields?: object) => void,
  ) {}

  onCommit(event: ChangeEvent): void {
    const change = event.change;
    if (!change || event.tenant !== this.graph.tenant) return;
    for (const [id, after] of change.after) {
      if (!after || change.before.has(id)) continue;
      const types = typesOf(after).map((t) => change.ctx.expandTerm(t));
      const accident = types.includes(`${TRAFFIC_NS}TrafficAccident`);
      if (!accident && !types.includes(`${TRAFFIC_NS}CitizenReport`)) continue;
      if (accident && valueOf(after, "detectionMethod") === "citizen_report") continue;
      const p = pointOf(after);
      if (p)
        void this.rescoreNear(id, p.lon, p.lat).catch((e: Error) =>
          this.log("re-score failed", { error: e.message }),
        );
    }
  }

  settled(): undefined {
    return undefined;
  }

  private async rescoreNear(source: string, lon: number, lat: number): Promise<void> {
    const now = Date.now();
    const near = await this.graph.select({
      type: "CitizenReport",
      near: { lon, lat, metres: EVIDENCE_METRES },
    });
    for (const e of near) {
      const r = reportOf(e);
      if (r.entityId === source || r.score === undefined) continue;
      if (r.status !== "pending" || r.verificationStatus !== "pending") continue;
      if (Math.abs(Date.parse(r.reportedAt) - now) > EVIDENCE_WINDOW_MS) continue;
      await this.verification.schedule(r.entityId, 1);
    }
  }
}
