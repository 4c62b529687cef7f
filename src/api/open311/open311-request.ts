import { REPORT_SEVERITIES, type ReportInput } from "../../domain/reports/report-model";
import { LAT_RANGE, LON_RANGE, MAX_IMAGE_BYTES, MAX_IMAGES } from "../../domain/reports/report-rules";
import type { MultipartLimits } from "../http/multipart";
import { input, oneOfStrings, type Static } from "../rest/json-schema";
import { coordinate, limited, REPORT_TYPE } from "../rest/report-requests";

/**
 * The fields of a GeoReport v2 `POST requests.json` (http://wiki.open311.org/GeoReport_v2), which this
 * face validates with, and the report they make. An empty field counts as absent; files come in `media`.
 */
export const SERVICE_REQUEST = input(
  {
    service_code: REPORT_TYPE,
    lat: coordinate(LAT_RANGE, "latitude"),
    long: coordinate(LON_RANGE, "longitude"),
    description: limited("description"),
    title: limited("title"),
    severity: oneOfStrings(REPORT_SEVERITIES),
    first_name: limited("name"),
    last_name: limited("name"),
    email: limited("email"),
    phone: limited("phone"),
    device_id: limited("deviceInfo"),
  },
  ["service_code", "lat", "long", "description"],
);

/** The multipart form's limits: up to five images in `media`. */
export const SERVICE_REQUEST_FILES: MultipartLimits = {
  files: MAX_IMAGES,
  fileBytes: MAX_IMAGE_BYTES,
  fields: 30,
  fieldBytes: 16 * 1024,
};

/** A service request as the domain's report input. */
export function serviceRequestReport(f: Static<typeof SERVICE_REQUEST>, files: Buffer[]): ReportInput {
  const name = [f.first_name, f.last_name].filter(Boolean).join(" ");
  return {
    type: f.service_code,
    title: f.title,
    description: f.description,
    lat: f.lat,
    lon: f.long,
    severity: f.severity ?? "medium",
    reporter: { name, phone: f.phone, email: f.email, isAnonymous: false },
    images: files,
    source: "api",
    deviceInfo: f.device_id,
  };
}
