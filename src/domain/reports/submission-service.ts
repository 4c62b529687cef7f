import { randomUUID } from "node:crypto";
import { AppError } from "../../errors";
import type { CityPlaces } from "../city-places";
import { GraphAccess } from "../graph-access";
import { reportDocument, reportOf } from "./report-entity";
import { MediaStore, normalizeImage } from "./report-images";
import { reportEntityId, type CitizenReport, type ReportInput, type ReviewPriority } from "./report-model";
import { EVIDENCE_METRES, ReportNeighbours } from "./report-neighbours";
import { scoreReport } from "./verification-score";
import type { VerificationService } from "./verification-service";

/** What a submission answers, before each face maps it to its own shape. */
export interface SubmissionResult {
  report: CitizenReport;
  /** The priority the evidence at submission time gives (B `priority`); the job writes the final one. */
  expectedPriority: ReviewPriority;
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

  /** Submits a validated report; resolves once the entity is durable and its verification queued. */
  async submit(input: ReportInput): Promise<SubmissionResult> {
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
    // only variant B shows the priority at once: the score of the evidence there is now
    const expected =
      input.form !== "b"
        ? "normal"
        : duplicateOf?.includes(":CitizenReport:")
          ? "none"
          : scoreReport(await this.verification.facts(report)).priority;
    return { report, expectedPriority: expected, estimatedVerificationTime: await this.estimate(expected) };
  }

  private async estimate(priority: ReviewPriority): Promise<string> {
    let minutes = Math.ceil((this.deps.verifyDelayMs ?? 0) / 60_000);
    if (priority !== "none")
      minutes += (await this.deps.reviewBacklog()) * REVIEW_MINUTES_EACH + REVIEW_MINUTES_EACH;
    minutes = Math.max(1, minutes);
    return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  }
}
