import { badRequest } from "../../errors";
import { isDateTime } from "../model/datetime";
import { parseAggrMethods, type AggrMethod } from "./aggregate";
import { parseIsoDuration } from "./iso-duration";

/**
 * The time properties a temporal query can select on (ETSI GS CIM 009 v1.8 §4.11 `timeproperty`);
 * `deletedAt` picks only the instances that record a deletion (§4.5.0, §5.7.3).
 */
export type TimeProperty = "observedAt" | "createdAt" | "modifiedAt" | "deletedAt";
const TIME_PROPERTIES: readonly string[] = ["observedAt", "createdAt", "modifiedAt", "deletedAt"];

/** The temporal part of a temporal retrieval or query (ETSI GS CIM 009 v1.8 §4.11, §5.7.3, §5.7.4). */
export interface TemporalQuery {
  timerel?: "before" | "after" | "between";
  /** Epoch ms of timeAt / endTimeAt. */
  timeAt?: number;
  endTimeAt?: number;
  timeproperty: TimeProperty;
  /** Only the last N instances of each attribute (§5.7.3 `lastN`). */
  lastN?: number;
  /** Aggregated representation (§4.5.19): functions and period (0 = one period over the whole range). */
  aggregate?: { methods: AggrMethod[]; periodMs: number };
}

/** Where the raw values come from: query parameters or the members of a Query body's `temporalQ`. */
export type Lookup = (name: string) => string | undefined;

function time(get: Lookup, name: string): number | undefined {
  const raw = get(name);
  if (raw === undefined) return undefined;
  if (!isDateTime(raw)) {
    throw badRequest(`${name} must be a DateTime such as 2024-01-31T08:00:00Z, got ${JSON.stringify(raw)}`, {
      parameter: name,
      value: raw,
    });
  }
  return Date.parse(raw);
}

/**
 * Parses and checks the temporal query (§4.11): `timerel` is before, after or between and needs `timeAt`;
 * between needs `endTimeAt` later than `timeAt`; `timeAt` or `endTimeAt` without `timerel` are refused;
 * `timeproperty` is observedAt (default), createdAt, modifiedAt or deletedAt; `lastN` is a positive integer;
 * `aggregatedValues` needs known `aggrMethods` and a valid ISO 8601 `aggrPeriodDuration`. Each mistake is a
 * 400 BadRequestData naming the parameter.
 */
export function parseTemporalQuery(get: Lookup, aggregated: boolean): TemporalQuery {
  const timerel = get("timerel");
  const timeAt = time(get, "timeAt");
  const endTimeAt = time(get, "endTimeAt");
  if (timerel !== undefined && !["before", "after", "between"].includes(timerel)) {
    throw badRequest(`timerel must be before, after or between, got ${JSON.stringify(timerel)}`, {
      parameter: "timerel",
    });
  }
  if (timerel !== undefined && timeAt === undefined) {
    throw badRequest(`timerel=${timerel} needs timeAt`, { parameter: "timeAt" });
  }
  if (timerel === undefined && (timeAt !== undefined || endTimeAt !== undefined)) {
    throw badRequest("timeAt and endTimeAt need timerel", { parameter: "timerel" });
  }
  if (timerel === "between") {
    if (endTimeAt === undefined)
      throw badRequest("timerel=between needs endTimeAt", { parameter: "endTimeAt" });
    if (endTimeAt <= (timeAt as number)) {
      throw badRequest("endTimeAt must be later than timeAt", { parameter: "endTimeAt" });
    }
  } else if (endTimeAt !== undefined) {
    throw badRequest(`endTimeAt is only allowed with timerel=between`, { parameter: "endTimeAt" });
  }
  const tp = get("timeproperty") ?? "observedAt";
  if (!TIME_PROPERTIES.includes(tp)) {
    throw badRequest(`timeproperty must be ${TIME_PROPERTIES.join(", ")}, got ${JSON.stringify(tp)}`, {
      parameter: "timeproperty",
    });
  }
  const rawN = get("lastN");
  if (rawN !== undefined && !/^[1-9]\d{0,8}$/.test(rawN)) {
    throw badRequest(`lastN must be a positive whole number, got ${JSON.stringify(rawN)}`, {
      parameter: "lastN",
    });
  }
  const q: TemporalQuery = {
    timerel: timerel as TemporalQuery["timerel"],
    timeAt,
    endTimeAt,
    timeproperty: tp as TimeProperty,
    lastN: rawN === undefined ? undefined : Number(rawN),
  };
  if (aggregated) {
    const period = get("aggrPeriodDuration");
    q.aggregate = {
      methods: parseAggrMethods(get("aggrMethods")),
      periodMs: period === undefined ? 0 : parseIsoDuration(period),
    };
  } else if (get("aggrPeriodDuration") !== undefined) {
    parseIsoDuration(get("aggrPeriodDuration") as string);
  }
  return q;
}

/** True if time `t` is inside the window of `q` (§4.11: before = earlier, after = at or later, between = [timeAt, endTimeAt)). */
export function inWindow(q: TemporalQuery, t: number): boolean {
  if (q.timerel === undefined) return true;
  const at = q.timeAt as number;
  if (q.timerel === "before") return t < at;
  if (q.timerel === "after") return t >= at;
  return t >= at && t < (q.endTimeAt as number);
}
