import { loadCameraRecords, type CameraRecord } from "./camera-records";
import { createDistrictLocator } from "./district-locator";
import { loadDistricts, type DistrictRecord } from "./districts";
import {
  dateTime,
  entity,
  geoProperty,
  point,
  property,
  relationship,
  type NgsiLdEntityDoc,
} from "./ngsi-ld-doc";

/** Camera capability values (traffic API variant A). */
export type CameraCapability = "accident_detection" | "vehicle_count" | "speed_detection";
/** Camera status values. */
export type CameraStatus = "active" | "inactive" | "error";

/** Where the camera metadata comes from (credited on every camera entity). */
export const CAMERA_SOURCE = "https://giaothong.hochiminhcity.gov.vn";
/** Attribution carried by every district entity (ODbL 1.0 requires it). */
export const DISTRICT_SOURCE = "© OpenStreetMap contributors, ODbL 1.0";

/** The NGSI-LD id of a camera: urn:ngsi-ld:TrafficCamera:<camera id>. */
export function cameraEntityId(cameraId: string): string {
  return `urn:ngsi-ld:TrafficCamera:${cameraId}`;
}

/** A camera record joined with its district (undefined outside every polygon). */
export interface LocatedCamera {
  record: CameraRecord;
  district?: DistrictRecord;
}

/** Cameras with their districts (point-in-polygon with a bbox prefilter). */
export function locateCameras(
  records: readonly CameraRecord[],
  districts: readonly DistrictRecord[],
): LocatedCamera[] {
  const locate = createDistrictLocator(districts);
  return records.map((record) => ({ record, district: locate(record.longitude, record.latitude) }));
}

/** Dataset status -> camera status: "success" is active, "error" is error, anything else inactive. */
export function cameraStatus(dataStatus: string): CameraStatus {
  if (dataStatus === "success") return "active";
  if (dataStatus === "error") return "error";
  return "inactive";
}

/**
 * Capabilities (the data has none; documented rule): every camera counts vehicles and detects
 * accidents; fixed cameras (not PTZ) also estimate speed, which needs a calibrated, fixed view.
 */
export function cameraCapabilities(r: CameraRecord): CameraCapability[] {
  const caps: CameraCapability[] = ["accident_detection", "vehicle_count"];
  if (r.ptz !== "True") caps.push("speed_detection");
  return caps;
}

/** The portal's image handler id (24 hex) of a camera, from its image URL. */
function imageHandlerId(r: CameraRecord): string | undefined {
  return /[?&]id=([0-9a-f]+)/i.exec(r.image_url_x4)?.[1];
}

/** The NGSI-LD TrafficCamera entity of one camera. */
export function cameraEntity(c: LocatedCamera): NgsiLdEntityDoc {
  const r = c.record;
  const hid = imageHandlerId(r);
  const base = "https://giaothong.hochiminhcity.gov.vn/render/ImageHandler.ashx";
  return entity(cameraEntityId(r.id), "TrafficCamera", {
    name: property(r.name),
    code: r.code ? property(r.code) : undefined,
    location: geoProperty(point(r.longitude, r.latitude)),
    status: property(cameraStatus(r.status)),
    refDistrict: c.district ? relationship(c.district.entityId) : undefined,
    capabilities: property(cameraCapabilities(r)),
    // The portal publishes refreshed JPEG snapshots, not video: the stream is the snapshot handler.
    streamURL: hid ? property(`${base}?id=${hid}`) : undefined,
    imageURL: hid ? property(`${base}?id=${hid}&zoom=4`) : undefined,
    cameraType: property(r.cam_type),
    ptz: property(r.ptz === "True"),
    lastUpdate: property(dateTime(r.last_refreshed)),
    source: property(CAMERA_SOURCE),
  });
}

/**
 * The NGSI-LD District entity of one district. Its cameras are one Relationship `refCameras` whose
 * `object` is the array of camera ids (NGSI-LD v1.8 allows an array of URIs; a set, unordered): it
 * gives one shortcut triple per camera, unlike a ListRelationship. Omitted when there is none.
 */
export function districtEntity(d: DistrictRecord, cameraIds: readonly string[]): NgsiLdEntityDoc {
  return entity(d.entityId, "District", {
    name: property(d.name),
    alternateName: d.alternateNames.length > 0 ? property(d.alternateNames) : undefined,
    location: geoProperty(d.geometry),
    refCameras: cameraIds.length > 0 ? relationship([...cameraIds]) : undefined,
    source: property(DISTRICT_SOURCE),
  });
}

/**
 * The seed: 22 District and 701 TrafficCamera entities (normalized NGSI-LD with @context), ready
 * for POST /ngsi-ld/v1/entityOperations/upsert. Pure apart from reading dataset/.
 */
export function buildSeedEntities(
  records: readonly CameraRecord[] = loadCameraRecords(),
  districts: readonly DistrictRecord[] = loadDistricts(),
): { districts: NgsiLdEntityDoc[]; cameras: NgsiLdEntityDoc[] } {
  const located = locateCameras(records, districts);
  const byDistrict = new Map<string, string[]>();
  for (const c of located) {
    if (!c.district) continue;
    const list = byDistrict.get(c.district.slug) ?? [];
    list.push(cameraEntityId(c.record.id));
    byDistrict.set(c.district.slug, list);
  }
  return {
    districts: districts.map((d) => districtEntity(d, byDistrict.get(d.slug) ?? [])),
    cameras: located.map(cameraEntity),
  };
}
