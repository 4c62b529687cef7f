import { badRequest } from "../../errors";
import { isDateTime } from "../model/datetime";
import { isObject } from "../model/normalize-attribute";

/**
 * A subscription's `temporalQ` (ETSI GS CIM 009 v1.8 §5.2.12, a TemporalQuery §5.2.21): only context source
 * registration subscriptions evaluate it, on the registrations' observationInterval (timeproperty observedAt,
 * the default) or managementInterval (createdAt, modifiedAt) (§5.11.7).
 */
export interface SubscriptionTemporalQ {
  timerel: "before" | "after" | "between";
  timeAt: string;
  endTimeAt?: string;
  timeproperty?: "observedAt" | "createdAt" | "modifiedAt";
}

const TIMERELS = ["before", "after", "between"];
const TIME_PROPERTIES = ["observedAt", "createdAt", "modifiedAt"];

const fail = (message: string) => badRequest(message, { member: "temporalQ" });

/** Checks a subscription's `temporalQ` member (§5.2.21); 400 BadRequestData on any mistake. */
export function parseSubscriptionTemporalQ(v: unknown): SubscriptionTemporalQ | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) throw fail("temporalQ must be an object");
  const { timerel, timeAt, endTimeAt, timeproperty } = v;
  if (typeof timerel !== "string" || !TIMERELS.includes(timerel))
    throw fail("temporalQ.timerel must be before, after or between");
  if (!isDateTime(timeAt)) throw fail("temporalQ.timeAt must be a DateTime");
  if (timerel === "between" && !isDateTime(endTimeAt))
    throw fail("temporalQ.timerel between needs endTimeAt, a DateTime");
  if (endTimeAt !== undefined && !isDateTime(endTimeAt)) throw fail("temporalQ.endTimeAt must be a DateTime");
  if (
    timeproperty !== undefined &&
    (typeof timeproperty !== "string" || !TIME_PROPERTIES.includes(timeproperty))
  )
    throw fail("temporalQ.timeproperty must be observedAt, createdAt or modifiedAt");
  const q: SubscriptionTemporalQ = { timerel: timerel as SubscriptionTemporalQ["timerel"], timeAt };
  if (endTimeAt !== undefined) q.endTimeAt = endTimeAt as string;
  if (timeproperty !== undefined) q.timeproperty = timeproperty as SubscriptionTemporalQ["timeproperty"];
  return q;
}
