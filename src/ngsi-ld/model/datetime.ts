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
