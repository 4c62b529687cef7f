import { AppError, badRequest } from "../../errors";
import { REPORT_SEVERITIES, REPORT_TYPES, type ReportInput, type Reporter } from "./report-model";

/**
 * The domain's rules of a citizen report (docs/reports-and-alerts.md "Submitting a report"), whichever
 * face it came through: each face first checks its own body against the schema it declares and maps it
 * to a {@link ReportInput}; the submission then holds that input to these rules.
 */

/** At most 5 images per report. */
export const MAX_IMAGES = 5;
/** Each image at most 8 MiB (decoded bytes). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** The city's latitude band. */
export const LAT_RANGE = [10.3, 11.2] as const;
/** The city's longitude band (Ho Chi Minh City spans 106.36 to 107.03 E). */
export const LON_RANGE = [106.2, 107.2] as const;
/** What a point outside the city's band is told. */
export const OUTSIDE_CITY = "The location must be inside the city (Ho Chi Minh City)";
/** The bands as the errors and the schemas describe them. */
export const CITY_BAND = `latitude ${LAT_RANGE[0]} to ${LAT_RANGE[1]}, longitude ${LON_RANGE[0]} to ${LON_RANGE[1]}`;
/** Lengths of a report's texts in characters (code points), once trimmed. */
export const TEXT_LIMITS = {
  title: [10, 100],
  description: [20, 1000],
  name: [1, 100],
  phone: [3, 30],
  email: [3, 200],
  deviceInfo: [1, 200],
} as const;
/** The most vehicles involved or injuries a report may give. */
export const MAX_COUNT = 1000;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const invalid = (parameter: string, value: unknown, expected: string): AppError =>
  badRequest(`The field '${parameter}' is invalid: expected ${expected}`, {
    parameter,
    value: typeof value === "string" && value.length > 200 ? value.slice(0, 200) + "..." : value,
    expected,
  });

/** A text trimmed, of its limits, without control characters; empty = absent. */
function text(
  value: string | undefined,
  name: keyof typeof TEXT_LIMITS,
  parameter: string = name,
): string | undefined {
  const t = value?.trim();
  if (!t) return undefined;
  const [min, max] = TEXT_LIMITS[name];
  const n = [...t].length;
  if (n < min || n > max) throw invalid(parameter, value, `${min} to ${max} characters`);
  if (CONTROL.test(t)) throw invalid(parameter, value, "text without control characters");
  return t;
}

/** A point outside the city's band is refused with the message that it must be inside the city. */
export function checkInCity(lat: number, lon: number, parameter = "location"): void {
  const inside = lat >= LAT_RANGE[0] && lat <= LAT_RANGE[1] && lon >= LON_RANGE[0] && lon <= LON_RANGE[1];
  if (!inside) throw badRequest(OUTSIDE_CITY, { parameter, value: { lat, lon }, expected: CITY_BAND });
}

/** The reporter, its texts checked; anonymous when it says so or gives neither name nor contact. */
function reporter(r: Reporter): Reporter {
  const name = text(r.name, "name", "reporter.name");
  const phone = text(r.phone, "phone", "reporter.phone");
  const email = text(r.email, "email", "reporter.email");
  const principalId = r.principalId === undefined ? {} : { principalId: r.principalId };
  if (r.isAnonymous || (!name && !phone && !email)) return { isAnonymous: true, ...principalId };
  return { name, phone, email, isAnonymous: false, ...principalId };
}

function count(v: number | undefined, parameter: string): number | undefined {
  if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= MAX_COUNT))
    throw invalid(parameter, v, `an integer from 0 to ${MAX_COUNT}`);
  return v;
}

/**
 * `input` held to the domain's rules: a type and a severity of the domain, the texts of their lengths
 * (trimmed; an empty title or contact is absent) without control characters, the point inside the city,
 * at most {@link MAX_IMAGES} images of {@link MAX_IMAGE_BYTES} each, counts from 0 to {@link MAX_COUNT}.
 * A break is a 400 INVALID_PARAMETER (an image too large a 413); a missing description a 400
 * INVALID_REQUEST. Returns the input as it is stored.
 */
export function checkReport(input: ReportInput): ReportInput {
  if (!REPORT_TYPES.includes(input.type)) throw invalid("type", input.type, REPORT_TYPES.join(", "));
  if (!REPORT_SEVERITIES.includes(input.severity))
    throw invalid("severity", input.severity, REPORT_SEVERITIES.join(", "));
  const description = text(input.description, "description");
  if (!description)
    throw new AppError("InvalidRequest", "The field 'description' is required", { parameter: "description" });
  if (!Number.isFinite(input.lat) || !Number.isFinite(input.lon))
    throw invalid("location", { lat: input.lat, lon: input.lon }, "a point in decimal degrees");
  checkInCity(input.lat, input.lon);
  if (input.images.length > MAX_IMAGES)
    throw invalid("images", `${input.images.length} images`, `at most ${MAX_IMAGES} images`);
  input.images.forEach((b, i) => {
    if (b.length > MAX_IMAGE_BYTES)
      throw new AppError("PayloadTooLarge", `Image ${i} is larger than ${MAX_IMAGE_BYTES} bytes`);
  });
  return {
    ...input,
    title: text(input.title, "title"),
    description,
    reporter: reporter(input.reporter),
    vehiclesInvolved: count(input.vehiclesInvolved, "vehicles_involved"),
    injuries: count(input.injuries, "injuries"),
    deviceInfo: text(input.deviceInfo, "deviceInfo", "device_info"),
  };
}
