/** ISO 8601 date-time as NGSI-LD uses it (§4.6.3): date, 'T', time, optional fraction, zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** True if `s` is a valid NGSI-LD DateTime string (ETSI GS CIM 009 §4.6.3). */
export function isDateTime(s: unknown): s is string {
  return typeof s === "string" && DATE_TIME.test(s) && !Number.isNaN(Date.parse(s));
}

/** The current time as an ISO 8601 UTC string with milliseconds, as used for createdAt/modifiedAt. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Days in each month of a common year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number of `s` from `i`, `n` decimal digits; NaN if one is not a digit. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const d = s.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}

/**
 * Epoch milliseconds of an NGSI-LD DateTime (ETSI GS CIM 009 §4.6.3), as `Date.parse` gives them. The
 * form the broker itself writes, `YYYY-MM-DDTHH:MM:SS[.sss]Z` (createdAt, modifiedAt, most observedAt),
 * is read digit by digit (the temporal history converts three per attribute instance written); any
 * other form, or a field out of range, goes to `Date.parse`.
 */
export function epochMs(s: string): number {
  const n = s.length;
  if (
    (n === 20 || (n === 24 && s.charCodeAt(19) === 46)) &&
    s.charCodeAt(n - 1) === 90 &&
    s.charCodeAt(4) === 45 &&
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(10) === 84 &&
    s.charCodeAt(13) === 58 &&
    s.charCodeAt(16) === 58
  ) {
    const y = digits(s, 0, 4);
    const mo = digits(s, 5, 2);
    const d = digits(s, 8, 2);
    const h = digits(s, 11, 2);
    const mi = digits(s, 14, 2);
    const sec = digits(s, 17, 2);
    const frac = n === 24 ? digits(s, 20, 3) : 0;
    const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 1 : 0;
    if (
      y >= 100 &&
      mo >= 1 &&
      mo <= 12 &&
      d >= 1 &&
      d <= MONTH_DAYS[mo - 1] + leap &&
      h < 24 &&
      mi < 60 &&
      sec < 60
    )
      return Date.UTC(y, mo - 1, d, h, mi, sec, frac);
  }
  return Date.parse(s);
}
