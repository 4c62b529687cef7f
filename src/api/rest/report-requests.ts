import { ACCIDENT_SEVERITIES, REPORT_SEVERITIES, REPORT_TYPES } from "../../domain/reports/report-model";
import {
  CITY_BAND,
  LAT_RANGE,
  LON_RANGE,
  MAX_COUNT,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  OUTSIDE_CITY,
  TEXT_LIMITS,
} from "../../domain/reports/report-rules";
import { arr, bool, either, input, int, num, oneOfStrings, str, text, type Static } from "./json-schema";

/**
 * The request bodies of the citizen report and review routes of both REST variants (docs/rest.md,
 * docs/reports-and-alerts.md "Submitting a report"): the routes validate with them and the OpenAPI
 * documents show them. Their limits are the domain's (report-rules.ts), which the domain checks again
 * whichever face a report comes through.
 */

/** A report type of the domain. */
export const REPORT_TYPE = oneOfStrings(REPORT_TYPES);
const TYPE = REPORT_TYPE;
/** The report scale, or the accident scale (minor, moderate, severe) read as low, medium, high. */
const ANY_SEVERITY = oneOfStrings([...REPORT_SEVERITIES, ...ACCIDENT_SEVERITIES.slice(0, 3)]);

/** A text of the domain's limits. */
export function limited(name: keyof typeof TEXT_LIMITS, about?: string) {
  const [min, max] = TEXT_LIMITS[name];
  const what = `${min} to ${max} characters, no control characters`;
  return { ...text(min, max), description: about ? `${about}: ${what}` : what };
}

/** A coordinate of the city's band; outside it, the domain's message that it must be inside the city. */
export const coordinate = (range: readonly [number, number], about: string) => ({
  ...num,
  minimum: range[0],
  maximum: range[1],
  description: `${about} in decimal degrees, ${range[0]} to ${range[1]}`,
  "x-messages": { minimum: OUTSIDE_CITY, maximum: OUTSIDE_CITY },
});

const POINT = {
  ...input({ lat: coordinate(LAT_RANGE, "latitude"), lon: coordinate(LON_RANGE, "longitude") }, [
    "lat",
    "lon",
  ]),
  description: `a point inside the city: ${CITY_BAND}`,
};

const IMAGES = arr(
  {
    ...str,
    minLength: 1,
    description: `an image (JPEG, PNG, WebP, HEIF, GIF or TIFF) of at most ${MAX_IMAGE_BYTES} bytes, in base64 or a data: URL`,
  },
  MAX_IMAGES,
);

const COUNT = { ...int, minimum: 0, maximum: MAX_COUNT };

/** A reporter: a name alone, or an object; none (or no name and no contact) is anonymous. */
const REPORTER_A = {
  ...either(
    limited("name"),
    input({ name: limited("name"), phone: limited("phone"), email: limited("email"), is_anonymous: bool }),
  ),
  description: "a name, or {name, phone, email, is_anonymous}",
};
const REPORTER_B = {
  ...either(
    limited("name"),
    input({
      name: limited("name"),
      contact: limited("email", "a phone number or an email address"),
      is_anonymous: bool,
    }),
  ),
  description: "a name, or {name, contact, is_anonymous}",
};

/** What every JSON report body takes. */
const REPORT_FIELDS = {
  title: limited("title"),
  description: limited("description"),
  location: POINT,
  severity: { ...ANY_SEVERITY, description: "default medium" },
  images: IMAGES,
  source: { ...oneOfStrings(["web", "mobile", "api"]), description: "default api" },
};

/** JSON body of A's POST /citizen-reports. */
export const REPORT_JSON_A = input({ ...REPORT_FIELDS, category: TYPE, reporter: REPORTER_A }, [
  "category",
  "description",
  "location",
]);

/** JSON body of B's POST /citizen-reports: the reporter has `contact`. */
export const REPORT_JSON_B = input({ ...REPORT_FIELDS, category: TYPE, reporter: REPORTER_B }, [
  "category",
  "description",
  "location",
]);

/** JSON body of A's POST /accidents/report. */
export const ACCIDENT_REPORT_A = input(
  { ...REPORT_FIELDS, reporter: REPORTER_A, vehicles_involved: COUNT, injuries: COUNT },
  ["description", "location"],
);

/** JSON body of B's POST /accidents. */
export const ACCIDENT_REPORT_B = input({ ...REPORT_FIELDS, reported_by: REPORTER_A }, [
  "description",
  "location",
]);

/**
 * The fields of the form-based submission (multipart/form-data); an empty field counts as absent.
 * Its files come in `images` ({@link REPORT_FORM_FILES}).
 */
export const REPORT_FORM_FIELDS = input(
  {
    type: TYPE,
    title: limited("title"),
    description: limited("description"),
    latitude: coordinate(LAT_RANGE, "latitude"),
    longitude: coordinate(LON_RANGE, "longitude"),
    severity: { ...oneOfStrings(REPORT_SEVERITIES), description: "default medium" },
    reporter_name: limited("name"),
    reporter_phone: limited("phone"),
    reporter_email: limited("email"),
    is_anonymous: oneOfStrings(["true", "false", "1", "0"]),
    source: { ...oneOfStrings(["web", "mobile"]), description: "default web" },
    device_info: limited("deviceInfo"),
  },
  ["type", "title", "description", "latitude", "longitude"],
);

/** The files of the form: up to five images. */
export const REPORT_FORM_FILES = arr(
  {
    type: "string",
    contentMediaType: "image/*",
    description: `an image file of at most ${MAX_IMAGE_BYTES} bytes`,
  },
  MAX_IMAGES,
);

/** POST /reviews/{report_id}. */
export const REVIEW_DECISION = input(
  { decision: oneOfStrings(["confirm", "reject"]), note: { ...str, maxLength: 2000 } },
  ["decision"],
);

export type ReportJsonA = Static<typeof REPORT_JSON_A>;
export type ReportJsonB = Static<typeof REPORT_JSON_B>;
export type AccidentReportA = Static<typeof ACCIDENT_REPORT_A>;
export type AccidentReportB = Static<typeof ACCIDENT_REPORT_B>;
export type ReportFormFields = Static<typeof REPORT_FORM_FIELDS>;
