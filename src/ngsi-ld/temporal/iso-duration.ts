import { badRequest } from "../../errors";

const ISO =
  /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const DAY = 86_400_000;
/** Milliseconds of each ISO 8601 duration field, in order Y M W D H M S (a year 365 d, a month 30 d). */
const UNIT_MS = [365 * DAY, 30 * DAY, 7 * DAY, DAY, 3_600_000, 60_000, 1000];

/**
 * Parses an ISO 8601 duration (`PT1H`, `P1D`, `P1DT12H`, `PT0.5S`, `P1W`) into milliseconds, for
 * `aggrPeriodDuration` (ETSI GS CIM 009 v1.8 §5.7.3, §4.5.19). Years count 365 days and months 30 days
 * (fixed-length periods). `PT0S` is 0 (one period over the whole time range). A malformed value is a
 * 400 BadRequestData naming `name`.
 */
export function parseIsoDuration(raw: string, name = "aggrPeriodDuration"): number {
  const m = ISO.exec(raw);
  if (!m || raw === "P" || raw.endsWith("T") || m.slice(1).every((x) => x === undefined)) {
    throw badRequest(`${name} must be an ISO 8601 duration such as PT1H or P1D, got ${JSON.stringify(raw)}`, {
      parameter: name,
      value: raw,
    });
  }
  let ms = 0;
  m.slice(1).forEach((x, i) => {
    if (x !== undefined) ms += Number(x) * UNIT_MS[i];
  });
  return Math.round(ms);
}
