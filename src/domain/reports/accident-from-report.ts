import { randomUUID } from "node:crypto";
import { GraphAccess } from "../graph-access";
import { TRAFFIC_ENTITY_CONTEXT } from "../vocabulary";
import { attr } from "./report-entity";
import { ACCIDENT_SEVERITY_OF, type CitizenReport } from "./report-model";
import { DUPLICATE_METRES, DUPLICATE_WINDOW_MS, ReportNeighbours } from "./report-neighbours";

/**
 * The TrafficAccident a confirmed accident report stands for (docs/reports-and-alerts.md "Review"): an
 * active accident within 200 m and 30 minutes is linked; otherwise a new one is created from the report,
 * aligned with FIWARE RoadAccident (severity mapped low->minor ... critical->critical, detectionMethod
 * `citizen_report`).
 */
export async function accidentForReport(
  graph: GraphAccess,
  r: CitizenReport,
  districtId: string | undefined,
  confidence: number,
): Promise<string> {
  const at = Date.parse(r.reportedAt);
  const near = await new ReportNeighbours(graph).accidents(
    r.lon,
    r.lat,
    at,
    DUPLICATE_METRES,
    DUPLICATE_WINDOW_MS,
  );
  const open = near.find((a) => (a.status as { value?: string } | undefined)?.value !== "resolved");
  if (open) return open.id;
  const id = `urn:ngsi-ld:TrafficAccident:cr-${randomUUID()}`;
  const doc: Record<string, unknown> = {
    id,
    type: "TrafficAccident",
    timestamp: attr.prop(attr.dt(new Date(at).toISOString())),
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [r.lon, r.lat] } },
    severity: attr.prop(ACCIDENT_SEVERITY_OF[r.severity]),
    status: attr.prop("active"),
    vehiclesInvolved: attr.prop(r.vehiclesInvolved ?? 1),
    injuries: attr.prop(r.injuries ?? 0),
    fatalities: attr.prop(0),
    confidence: attr.prop(confidence),
    detectionMethod: attr.prop("citizen_report"),
    description: attr.prop(r.description),
    refReport: attr.rel(r.entityId),
    "@context": [...TRAFFIC_ENTITY_CONTEXT],
  };
  if (r.images.length) doc.images = attr.prop(r.images);
  if (r.nearbyCameras[0]) doc.refCamera = attr.rel(r.nearbyCameras[0]);
  if (districtId) doc.refDistrict = attr.rel(districtId);
  if (r.address) doc.address = attr.prop(r.address);
  await graph.create(doc);
  return id;
}
