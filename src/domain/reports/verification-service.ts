import type { JobQueue } from "../../jobs/job-queue";
import type { KeyedLock } from "../../ngsi-ld/entities/keyed-lock";
import { GraphAccess } from "../graph-access";
import { attr, reportOf } from "./report-entity";
import type { CitizenReport } from "./report-model";
import { ReportNeighbours } from "./report-neighbours";
import { transition } from "./report-transitions";
import { scoreReport, type VerificationFacts, type VerificationOutcome } from "./verification-score";

/** How long the list of reports behind a reporter's record is reused, ms. */
const RECORD_TTL_MS = 10_000;

/** A verification job: score report `reportId` (entity id). `uri` names the queue's limit key. */
export interface VerifyJob {
  uri: string;
  reportId: string;
  /** 1 = first (BullMQ priority): re-scores of waiting reports go before first scores. */
  priority?: number;
}

/** A verification job for a report. */
export const verifyJob = (reportId: string, priority?: number): VerifyJob => ({
  uri: "verify://reports",
  reportId,
  priority,
});

/** What verification works with. */
export interface VerificationDeps {
  graph: GraphAccess;
  /** Serializes the read-decide-write of one report between verification and review. */
  locks: KeyedLock;
  /** How long a new report waits before its verification runs, ms (default 0). */
  delayMs?: number;
  /** Where the outcome of each verification is logged (debug level). */
  log?: (msg: string, fields?: object) => void;
}

/**
 * Verification of citizen reports (docs/reports-and-alerts.md "Verification"):
 * gathers the evidence near the report in the graph, scores it (verification-score.ts), and writes
 * the outcome back to the CitizenReport entity: `verified` over 0.85, else pending with a review
 * priority. Runs as a job of the queue in src/jobs; reports still unscored when the service starts are
 * queued again from the graph, so a crash between acknowledgement and verification loses nothing.
 */
export class VerificationService {
  private readonly neighbours: ReportNeighbours;
  private queue?: JobQueue<VerifyJob>;
  private reports?: { at: number; list: Promise<CitizenReport[]> };

  private readonly graph: GraphAccess;
  private readonly locks: KeyedLock;
  private readonly delayMs: number;
  private readonly log: (msg: string, fields?: object) => void;

  constructor(deps: VerificationDeps) {
    this.graph = deps.graph;
    this.locks = deps.locks;
    this.delayMs = deps.delayMs ?? 0;
    this.log = deps.log ?? (() => undefined);
    this.neighbours = new ReportNeighbours(deps.graph);
  }

  /** Sets the queue the jobs go to (built with this service's {@link run}). */
  attach(queue: JobQueue<VerifyJob>): void {
    this.queue = queue;
  }

  /** Queues the verification of a report (after the configured delay, which lets evidence arrive). */
  async schedule(reportId: string, priority?: number): Promise<void> {
    const q = this.queue;
    if (!q) return;
    if (this.delayMs > 0) {
      setTimeout(
        () => void q.enqueue([verifyJob(reportId, priority)]).catch(() => undefined),
        this.delayMs,
      ).unref();
      return;
    }
    await q.enqueue([verifyJob(reportId, priority)]);
  }

  /** Queues every report that waits for its first score (start-up: the graph is the truth). */
  async resume(): Promise<number> {
    const waiting = (await this.graph.select({ type: "CitizenReport" }))
      .map(reportOf)
      .filter((r) => r.status === "pending" && r.verificationStatus === "pending" && r.score === undefined);
    for (const r of waiting) await this.schedule(r.entityId);
    return waiting.length;
  }

  /** The job: scores a report that is still pending and writes the outcome; a decided report is left alone. */
  run(job: VerifyJob): Promise<void> {
    return this.locks.run(job.reportId, () => this.verify(job));
  }

  private async verify(job: VerifyJob): Promise<void> {
    const e = await this.graph.read(job.reportId);
    if (!e) return;
    const report = reportOf(e);
    if (report.status !== "pending" || report.verificationStatus !== "pending") return;
    // a duplicate of another report takes that report's decision (review-service.ts settleDuplicates)
    if (report.duplicateOf?.includes(":CitizenReport:")) return;
    const outcome = scoreReport(await this.facts(report));
    await this.write(report, outcome);
    this.log("report verified", { report: report.id, score: outcome.score, status: outcome.status });
  }

  /** The evidence of one report, from the graph. */
  async facts(r: CitizenReport): Promise<VerificationFacts> {
    const at = Date.parse(r.reportedAt);
    const [detections, others, record] = await Promise.all([
      r.type === "accident" || r.type === "congestion"
        ? this.neighbours.cameraDetections(r.lon, r.lat, at)
        : Promise.resolve([]),
      this.neighbours.reports(r.lon, r.lat, at, 500, 30 * 60_000, r.type),
      this.record(r),
    ]);
    return {
      cameraDetections: detections.map((d) => d.id),
      corroboratingReports: others
        .filter((o) => o.entityId !== r.entityId && o.status !== "rejected")
        .map((o) => o.entityId),
      images: r.images.length,
      record,
      anonymous: r.reporter.isAnonymous,
      identified: !r.reporter.isAnonymous && !!r.reporter.name && !!(r.reporter.phone || r.reporter.email),
    };
  }

  /** The reporter's decided past reports (matched by user, phone or email) and how many were verified. */
  private async record(r: CitizenReport): Promise<{ decided: number; verified: number }> {
    const who = r.reporter;
    if (who.isAnonymous || !(who.principalId || who.phone || who.email)) return { decided: 0, verified: 0 };
    const same = (o: CitizenReport) =>
      o.entityId !== r.entityId &&
      ((who.principalId && o.reporter.principalId === who.principalId) ||
        (who.phone && o.reporter.phone === who.phone) ||
        (who.email && o.reporter.email === who.email));
    const mine = (await this.allReports()).filter(same);
    const decided = mine.filter((o) => o.status !== "pending");
    return { decided: decided.length, verified: decided.filter((o) => o.status !== "rejected").length };
  }

  /**
   * Every report, read at most once per {@link RECORD_TTL_MS}: a reporter's record moves slowly, and
   * reading every report for each verification made verification O(reports).
   */
  private async allReports(): Promise<CitizenReport[]> {
    const now = Date.now();
    if (!this.reports || now - this.reports.at > RECORD_TTL_MS) {
      const list = this.graph.select({ type: "CitizenReport" }).then((es) => es.map(reportOf));
      this.reports = { at: now, list };
    }
    return this.reports.list;
  }

  private async write(r: CitizenReport, o: VerificationOutcome): Promise<void> {
    const attrs: Record<string, unknown> = {
      confidence: attr.prop(o.score),
      verificationEvidence: attr.prop(o.evidence),
      reviewPriority: attr.prop(o.priority),
    };
    if (o.status === "verified") {
      const next = transition(r.status, r.verificationStatus, "verify");
      attrs.status = attr.prop(next.status);
      attrs.verificationStatus = attr.prop(next.verificationStatus);
      attrs.verifiedAt = attr.prop(attr.dt(new Date().toISOString()));
      if (r.duplicateOf?.includes(":TrafficAccident:")) attrs.refAccident = attr.rel(r.duplicateOf);
    }
    await this.graph.merge(r.entityId, attrs);
  }
}
