import type { Entity } from "../../ngsi-ld/model/entity";
import { objectsOf, pointOf, valueOf } from "../graph-access";
import { TRAFFIC_ENTITY_CONTEXT } from "../vocabulary";
import {
  reportLocalId,
  type CitizenReport,
  type Evidence,
  type ReportInput,
  type ReportSeverity,
  type ReportSource,
  type ReportStatus,
  type ReportType,
  type Reporter,
  type ReviewPriority,
  type VerificationStatus,
} from "./report-model";

const prop = (value: unknown) => ({ type: "Property", value });
const rel = (object: string | string[]) => ({ type: "Relationship", object });
const dt = (iso: string) => ({ "@type": "DateTime", "@value": iso });

/** What enrichment and duplicate detection add to a submission before it is written. */
export interface ReportEnrichment {
  address?: string;
  nearbyCameras: string[];
  districtId?: string;
  duplicateOf?: string;
  images: string[];
}

/** The stored reporter: nothing but the flag when anonymous. */
function storedReporter(r: Reporter): Record<string, unknown> {
  if (r.isAnonymous) return { isAnonymous: true };
  const out: Record<string, unknown> = { isAnonymous: false };
  if (r.name) out.name = r.name;
  if (r.phone) out.phone = r.phone;
  if (r.email) out.email = r.email;
  return out;
}

/**
 * The CitizenReport entity of a new submission (docs/reports-and-alerts.md "Submitting a report":
 * `reportType`, `description`, `location`, `severity`, `status`, `reportedAt`, `refNearbyCamera`), with
 * the stored model's other fields beside them. It starts `pending`, verification `pending`, priority
 * `normal` until the verification job scores it.
 */
export function reportDocument(
  entityId: string,
  input: ReportInput,
  enrich: ReportEnrichment,
  now: string,
): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    id: entityId,
    type: "CitizenReport",
    reportType: prop(input.type),
    description: prop(input.description),
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [input.lon, input.lat] } },
    severity: prop(input.severity),
    status: prop("pending"),
    verificationStatus: prop("pending"),
    reviewPriority: prop("normal"),
    reportedAt: prop(dt(now)),
    isAnonymous: prop(input.reporter.isAnonymous),
    reporter: prop(storedReporter(input.reporter)),
    submissionSource: prop(input.source),
  };
  if (input.title) doc.title = prop(input.title);
  if (enrich.address) doc.address = prop(enrich.address);
  if (enrich.images.length) doc.images = prop(enrich.images);
  if (enrich.nearbyCameras.length) doc.refNearbyCamera = rel(enrich.nearbyCameras);
  if (enrich.districtId) doc.refDistrict = rel(enrich.districtId);
  if (enrich.duplicateOf) doc.refDuplicateOf = rel(enrich.duplicateOf);
  if (input.reporter.principalId) doc.reporterId = prop(input.reporter.principalId);
  if (input.deviceInfo) doc.deviceInfo = prop(input.deviceInfo);
  if (input.vehiclesInvolved !== undefined) doc.vehiclesInvolved = prop(input.vehiclesInvolved);
  if (input.injuries !== undefined) doc.injuries = prop(input.injuries);
  doc["@context"] = [...TRAFFIC_ENTITY_CONTEXT];
  return doc;
}

const str = (e: Entity, n: string): string | undefined => {
  const v = valueOf(e, n);
  return typeof v === "string" ? v : undefined;
};
const num = (e: Entity, n: string): number | undefined => {
  const v = valueOf(e, n);
  return typeof v === "number" ? v : undefined;
};

/** The report read model of a CitizenReport entity (compacted with the traffic context). */
export function reportOf(e: Entity): CitizenReport {
  const p = pointOf(e) ?? { lon: NaN, lat: NaN };
  const images = valueOf(e, "images");
  const reporter = (valueOf(e, "reporter") ?? { isAnonymous: true }) as Reporter;
  const evidence = valueOf(e, "verificationEvidence");
  const principalId = str(e, "reporterId");
  return {
    id: reportLocalId(e.id),
    entityId: e.id,
    type: (str(e, "reportType") ?? "other") as ReportType,
    title: str(e, "title"),
    description: str(e, "description") ?? "",
    lat: p.lat,
    lon: p.lon,
    address: str(e, "address"),
    severity: (str(e, "severity") ?? "medium") as ReportSeverity,
    status: (str(e, "status") ?? "pending") as ReportStatus,
    verificationStatus: (str(e, "verificationStatus") ?? "pending") as VerificationStatus,
    priority: (str(e, "reviewPriority") ?? "normal") as ReviewPriority,
    score: num(e, "confidence"),
    evidence: Array.isArray(evidence) ? (evidence as Evidence[]) : evidence ? [evidence as Evidence] : [],
    images: Array.isArray(images) ? (images as string[]) : typeof images === "string" ? [images] : [],
    reporter: { ...reporter, ...(principalId ? { principalId } : {}) },
    source: (str(e, "submissionSource") ?? "api") as ReportSource,
    reportedAt: str(e, "reportedAt") ?? String(e.createdAt ?? ""),
    verifiedAt: str(e, "verifiedAt"),
    resolvedAt: str(e, "resolvedAt"),
    nearbyCameras: objectsOf(e, "refNearbyCamera"),
    linkedAccidentId: objectsOf(e, "refAccident")[0],
    duplicateOf: objectsOf(e, "refDuplicateOf")[0],
    vehiclesInvolved: num(e, "vehiclesInvolved"),
    injuries: num(e, "injuries"),
  };
}

/** Property / Relationship / DateTime attribute builders for merges. */
export const attr = { prop, rel, dt };
