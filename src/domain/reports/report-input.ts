import { AppError, badRequest } from "../../errors";
import {
  ACCIDENT_SEVERITIES,
  REPORT_SEVERITIES,
  REPORT_TYPES,
  type ReportInput,
  type ReportSeverity,
  type ReportSource,
  type ReportType,
  type Reporter,
  type SubmissionForm,
} from "./report-model";

/** At most 5 images per report (docs/reports-and-alerts.md "Submitting a report"). */
export const MAX_IMAGES = 5;
/** Each image at most 8 MiB (decoded bytes). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** The city's latitude band. */
export const LAT_RANGE = [10.3, 11.2] as const;
/** The city's longitude band (Ho Chi Minh City spans 106.36 to 107.03 E). */
export const LON_RANGE = [106.2, 107.2] as const;

type Body = Record<string, unknown>;

const missing = (parameter: string): AppError =>
  new AppError("InvalidRequest", `The field '${parameter}' is required`, { parameter });

const invalid = (parameter: string, value: unknown, expected: string): AppError =>
  badRequest(`The field '${parameter}' is invalid: expected ${expected}`, {
    parameter,
    value: typeof value === "string" && value.length > 200 ? value.slice(0, 200) + "..." : value,
    expected,
  });

function objectBody(v: unknown): Body {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new AppError("InvalidRequest", "The body must be a JSON object");
  return v as Body;
}

/** Text of at most/at least the given characters (code points); control characters refused. */
function text(b: Body, name: string, min: number, max: number, required: boolean): string | undefined {
  const v = b[name];
  if (v === undefined || v === null || v === "") {
    if (required) throw missing(name);
    return undefined;
  }
  if (typeof v !== "string") throw invalid(name, v, "a string");
  const t = v.trim();
  const n = [...t].length;
  if (n < min || n > max) throw invalid(name, v, `${min} to ${max} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(t))
    throw invalid(name, v, "text without control characters");
  return t;
}

function oneOf<T extends string>(b: Body, name: string, values: readonly T[], def?: T): T {
  const v = b[name];
  if (v === undefined || v === null || v === "") {
    if (def !== undefined) return def;
    throw missing(name);
  }
  const s = typeof v === "string" ? v.toLowerCase() : v;
  if (typeof s !== "string" || !(values as readonly string[]).includes(s))
    throw invalid(name, v, values.join(", "));
  return s as T;
}

function count(b: Body, name: string): number | undefined {
  const v = b[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 1000)
    throw invalid(name, v, "an integer from 0 to 1000");
  return v;
}

function coordinate(v: unknown, name: string): number {
  if (v === undefined || v === null || v === "") throw missing(name);
  const n = typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) throw invalid(name, v, "a number (decimal degrees)");
  return n;
}

/** A point outside the city's band is refused with the message that it must be inside the city. */
export function checkInCity(lat: number, lon: number, parameter = "location"): void {
  if (lat < LAT_RANGE[0] || lat > LAT_RANGE[1] || lon < LON_RANGE[0] || lon > LON_RANGE[1])
    throw badRequest("The location must be inside the city (Ho Chi Minh City)", {
      parameter,
      value: { lat, lon },
      expected: `latitude ${LAT_RANGE[0]} to ${LAT_RANGE[1]}, longitude ${LON_RANGE[0]} to ${LON_RANGE[1]}`,
    });
}

function location(b: Body): { lat: number; lon: number } {
  const l = b.location;
  if (l === undefined || l === null) throw missing("location");
  if (typeof l !== "object" || Array.isArray(l)) throw invalid("location", l, "an object {lat, lon}");
  const o = l as Body;
  const lat = coordinate(o.lat, "location.lat");
  const lon = coordinate(o.lon ?? o.lng, "location.lon");
  checkInCity(lat, lon);
  return { lat, lon };
}

/** Base64 images (plain or data: URLs), at most {@link MAX_IMAGES}, each at most {@link MAX_IMAGE_BYTES}. */
export function base64Images(v: unknown): Buffer[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalid("images", typeof v, "an array of base64 strings");
  if (v.length > MAX_IMAGES) throw invalid("images", `${v.length} images`, `at most ${MAX_IMAGES} images`);
  return v.map((s, i) => {
    if (typeof s !== "string" || s.length === 0) throw invalid(`images[${i}]`, typeof s, "a base64 string");
    const data = s.replace(/^data:[\w/+.-]+;base64,/, "").replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(data))
      throw invalid(`images[${i}]`, "(not base64)", "a base64 string");
    if ((data.length * 3) / 4 > MAX_IMAGE_BYTES)
      throw new AppError("PayloadTooLarge", `Image ${i} is larger than ${MAX_IMAGE_BYTES} bytes`);
    return Buffer.from(data, "base64");
  });
}

function reporter(v: unknown, contactField?: string): Reporter {
  if (v === undefined || v === null) return { isAnonymous: true };
  if (typeof v === "string") return { name: text({ n: v }, "n", 1, 100, false), isAnonymous: false };
  const o = objectBody(v);
  const r: Reporter = {
    name: text(o, "name", 1, 100, false),
    phone: text(o, "phone", 3, 30, false),
    email: text(o, "email", 3, 200, false),
    isAnonymous: o.is_anonymous === true || o.isAnonymous === true,
  };
  const contact = contactField ? text(o, contactField, 3, 200, false) : undefined;
  if (contact) {
    if (contact.includes("@")) r.email = contact;
    else r.phone = contact;
  }
  if (!r.name && !r.phone && !r.email) r.isAnonymous = true;
  return r;
}

/** The accident scale or the report scale, as a report severity. */
function anySeverity(b: Body, def: ReportSeverity): ReportSeverity {
  const v = b.severity;
  if (typeof v === "string") {
    const i = (ACCIDENT_SEVERITIES as readonly string[]).indexOf(v.toLowerCase());
    if (i >= 0) return REPORT_SEVERITIES[i];
  }
  return oneOf(b, "severity", REPORT_SEVERITIES, def);
}

const sourceOf = (b: Body): ReportSource => (b.source === "web" || b.source === "mobile" ? b.source : "api");

/** REST A/B `POST /citizen-reports` JSON; B's reporter has `contact`. */
export function parseCitizenReportJson(raw: unknown, form: "a" | "b" | "graphql"): ReportInput {
  const b = objectBody(raw);
  const type = oneOf<ReportType>(b, b.category !== undefined ? "category" : "type", REPORT_TYPES);
  return {
    type,
    title: text(b, "title", 10, 100, false),
    description: text(b, "description", 20, 1000, true)!,
    ...location(b),
    severity: anySeverity(b, "medium"),
    reporter: reporter(b.reporter, form === "b" ? "contact" : undefined),
    images: base64Images(b.images),
    source: sourceOf(b),
    form,
  };
}

/** A `POST /accidents/report` and B `POST /accidents`: an accident report. */
export function parseAccidentReportJson(raw: unknown, form: "a-accident" | "b-accident"): ReportInput {
  const b = objectBody(raw);
  return {
    type: "accident",
    title: text(b, "title", 10, 100, false),
    description: text(b, "description", 20, 1000, true)!,
    ...location(b),
    severity: anySeverity(b, "medium"),
    reporter: reporter(form === "b-accident" ? b.reported_by : b.reporter),
    images: base64Images(b.images),
    source: sourceOf(b),
    form,
    vehiclesInvolved: count(b, "vehicles_involved"),
    injuries: count(b, "injuries"),
  };
}

/** The form-based submission: text fields and uploaded image files. */
export function parseReportForm(
  fields: Record<string, string>,
  files: Buffer[],
  form: SubmissionForm = "form",
): ReportInput {
  if (files.length > MAX_IMAGES)
    throw invalid("images", `${files.length} files`, `at most ${MAX_IMAGES} images`);
  const lat = coordinate(fields.latitude, "latitude");
  const lon = coordinate(fields.longitude, "longitude");
  checkInCity(lat, lon, "latitude");
  const anonymous = fields.is_anonymous === "true" || fields.is_anonymous === "1";
  if (fields.is_anonymous !== undefined && !["true", "false", "1", "0", ""].includes(fields.is_anonymous))
    throw invalid("is_anonymous", fields.is_anonymous, "true or false");
  const name = text(fields, "reporter_name", 1, 100, false);
  const phone = text(fields, "reporter_phone", 3, 30, false);
  const email = text(fields, "reporter_email", 3, 200, false);
  return {
    type: oneOf<ReportType>(fields, "type", REPORT_TYPES),
    title: text(fields, "title", 10, 100, form === "form"),
    description: text(fields, "description", 20, 1000, true)!,
    lat,
    lon,
    severity: oneOf<ReportSeverity>(fields, "severity", REPORT_SEVERITIES, "medium"),
    reporter: anonymous
      ? { isAnonymous: true }
      : { name, phone, email, isAnonymous: !name && !phone && !email },
    images: files,
    source: fields.source === "mobile" ? "mobile" : "web",
    form,
    deviceInfo: text(fields, "device_info", 1, 200, false),
  };
}
