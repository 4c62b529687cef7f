import { randomUUID } from "node:crypto";
import { AppError } from "../../errors";
import type { CityPlaces } from "../city-places";
import { GraphAccess } from "../graph-access";
import { reportDocument, reportOf } from "./report-entity";
import { MediaStore, normalizeImage } from "./report-images";
import { checkReport } from "./report-rules";
import { reportEntityId, type CitizenReport, type ReportInput, type ReviewPriority } from "./report-model";
import { EVIDENCE_METRES, ReportNeighbours } from "./report-neighbours";
import { scoreReport } from "./verification-score";
import type { VerificationService } from "./verification-service";

/** What a submission answers, before each face maps it to its own shape. */
export interface SubmissionResult {
  report: CitizenReport;
  /** A human string (A `estimated_verification_time`), e.g. "1 minute". */
  estimatedVerificationTime: string;
}

/** What submission works with. */
export interface SubmissionDeps {
  graph: GraphAccess;
  places: CityPlaces;
  media: MediaStore;
  verification: VerificationService;
  /** The public URL of a stored image file name. */
  mediaUrl(name: string): string;
  /** How many reports wait for an operator (for the estimate). */
  reviewBacklog(): Promise<number>;
  /** How long a new report waits before its verification runs, ms (default 0). */
  verifyDelayMs?: number;
}

/** Minutes an operator takes per queued review, for the estimate. */
const REVIEW_MINUTES_EACH = 2;

/**
 * Submission of citizen reports, independent of HTTP (REST A and B, the form, Open311 and GraphQL all
 * call it): images made safe and stored (report-images.ts), the address and the cameras within 500 m
 * from the graph, a duplicate within 200 m and 30 minutes linked, one CitizenReport entity written
 * through the entity service, and its verification queued. Nothing is stored when the input is bad:
 * every image is decoded before the first file or entity is written.
 */
export class SubmissionService {
  private readonly neighbours: ReportNeighbours;
  private readonly graph: GraphAccess;
  private readonly places: CityPlaces;
  private readonly verification: VerificationService;

  constructor(private readonly deps: SubmissionDeps) {
    this.graph = deps.graph;
    this.places = deps.places;
    this.verification = deps.verification;
    this.neighbours = new ReportNeighbours(deps.graph);
  }

  /**
   * Submits a report once it keeps the domain's rules (report-rules.ts: a 4xx and nothing stored when it
   * does not); resolves once the entity is durable and its verification queued.
   */
  async submit(submitted: ReportInput): Promise<SubmissionResult> {
    const input = checkReport(submitted);
    const jpegs: Buffer[] = [];
    for (let i = 0; i < input.images.length; i++) jpegs.push(await normalizeImage(input.images[i], i));
    const now = new Date();
    const [cameras, district, duplicateOf] = await Promise.all([
      this.places.camerasNear(input.lon, input.lat, EVIDENCE_METRES),
      this.places.districtAt(input.lon, input.lat),
      this.neighbours.duplicateOf(input.type, input.lon, input.lat, now.getTime()),
    ]);
    const address = await this.places.addressOf(input.lon, input.lat, cameras);
    const names: string[] = [];
    for (const j of jpegs) names.push(await this.deps.media.put(j));
    const entityId = reportEntityId(randomUUID());
    const doc = reportDocument(
      entityId,
      input,
      {
        address,
        nearbyCameras: cameras.map((c) => c.entityId),
        districtId: district?.entityId,
        duplicateOf,
        images: names.map((n) => this.deps.mediaUrl(n)),
      },
      now.toISOString(),
    );
    await this.graph.create(doc);
    await this.verification.schedule(entityId);
    const stored = await this.graph.read(entityId);
    if (!stored) throw new AppError("InternalError", `report ${entityId} not readable after its write`);
    const report = reportOf(stored);
    return { report, estimatedVerificationTime: await this.estimate() };
  }

  /**
   * The review priority the evidence near a report just submitted gives now (B `priority`); its
   * verification job writes the final one. A duplicate of another report is not reviewed: `none`.
   */
  async expectedPriority(report: CitizenReport): Promise<ReviewPriority> {
    if (report.duplicateOf?.includes(":CitizenReport:")) return "none";
    return scoreReport(await this.verification.facts(report)).priority;
  }

  /** The delay, then an operator's turn behind the reports already waiting for review. */
  private async estimate(): Promise<string> {
    const delay = Math.ceil((this.deps.verifyDelayMs ?? 0) / 60_000);
    const review = (await this.deps.reviewBacklog()) * REVIEW_MINUTES_EACH + REVIEW_MINUTES_EACH;
    const minutes = Math.max(1, delay + review);
    return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  }
}
