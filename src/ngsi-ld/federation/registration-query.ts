import { badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { canonicalName } from "../model/canonical-names";
import { isDateTime } from "../model/datetime";
import type { Entity } from "../model/entity";
import { buildFilter } from "../query/build-filter";
import type { GeoQueryParams } from "../query/geo";
import { parseQ } from "../query/q/q-parser";
import { matchesQ, resolveQ } from "../query/q/q-evaluate";
import type { ResolvedQ } from "../query/q/q-ast";
import { registrationMatches, type CompiledRegistration } from "./registration-match";
import { REGISTRATION_MEMBERS } from "./registration-view";

/** The temporal part of a registration query (§5.10.2). */
export interface RegistrationTimeQuery {
  timerel?: string;
  timeAt?: string;
  endTimeAt?: string;
  timeproperty?: string;
}

/** The parameters of a registration query as the request states them (§5.10.2, §6.8.3.2). */
export interface RegistrationQueryInput extends RegistrationTimeQuery {
  type?: string;
  ids?: string[];
  idPattern?: string;
  attrs?: string[];
  q?: string;
  csf?: string;
  geo?: GeoQueryParams;
}

/** The registration's context source properties as an entity of Properties named for `ctx` (q, csf). */
export function propertiesOf(cr: CompiledRegistration, ctx: CompiledContext): Entity {
  const e: Entity = { id: cr.record.reg.id, type: "ContextSourceRegistration" };
  for (const [k, v] of Object.entries(cr.record.reg)) {
    if (REGISTRATION_MEMBERS.has(k) || k === "createdAt" || k === "modifiedAt") continue;
    e[canonicalName(ctx, cr.ctx.expandTerm(k))] = { type: "Property", value: v };
  }
  return e;
}

type TimeCheck = (cr: CompiledRegistration) => boolean;

/**
 * §5.10.2 temporal query (also a csource subscription's `temporalQ`, §5.11.7): on observationInterval
 * (observedAt, default) or managementInterval; undefined without timerel.
 */
export function timeCheck(input: RegistrationTimeQuery): TimeCheck | undefined {
  const { timerel, timeAt, endTimeAt } = input;
  if (timerel === undefined) return undefined;
  if (!["before", "after", "between"].includes(timerel))
    throw badRequest("timerel must be before, after or between", { parameter: "timerel" });
  if (!isDateTime(timeAt)) throw badRequest("timerel needs timeAt, a DateTime", { parameter: "timeAt" });
  if (timerel === "between" && !isDateTime(endTimeAt))
    throw badRequest("timerel=between needs endTimeAt", { parameter: "endTimeAt" });
  const prop = input.timeproperty ?? "observedAt";
  const member = prop === "observedAt" ? "observationInterval" : "managementInterval";
  const t = Date.parse(timeAt);
  const end = endTimeAt !== undefined ? Date.parse(endTimeAt) : t;
  return (cr) => {
    const i = cr.record.reg[member];
    if (!i) return false;
    const start = i.startAt !== undefined ? Date.parse(i.startAt) : -Infinity;
    const stop = i.endAt !== undefined ? Date.parse(i.endAt) : Infinity;
    if (timerel === "before") return start < t;
    if (timerel === "after") return stop > t;
    return start < end && stop > t;
  };
}

/**
 * The test a registration passes to be in the answer of GET /csourceRegistrations (ETSI GS CIM 009 v1.8
 * §5.10.2): the entity part (type, id, idPattern, attrs) as in §5.12, `q` and `csf` on the context source
 * properties, the geo-query on `location`, the temporal query on the intervals. Malformed input is 400.
 */
export function registrationQuery(
  input: RegistrationQueryInput,
  ctx: CompiledContext,
): (cr: CompiledRegistration) => boolean {
  const hasSelector = input.type !== undefined || input.ids || input.idPattern !== undefined;
  const hasGeo = input.geo && Object.values(input.geo).some((v) => v !== undefined);
  if (
    !hasSelector &&
    !input.attrs &&
    input.q === undefined &&
    input.csf === undefined &&
    !hasGeo &&
    input.timerel === undefined
  ) {
    // §5.10.2: entity types or attribute names (or another filter) are needed
    throw badRequest("A registration query needs type, attrs, id, idPattern, q, csf, a geo-query or timerel");
  }
  const filter = buildFilter(
    {
      selectors: hasSelector ? [{ type: input.type, ids: input.ids, idPattern: input.idPattern }] : undefined,
      attrs: input.attrs,
      geo: input.geo ? { params: input.geo } : undefined,
    },
    ctx,
  );
  const geo = filter.geo;
  delete filter.geo;
  const qs: ResolvedQ[] = [input.q, input.csf]
    .filter((x): x is string => x !== undefined)
    .map((src) => resolveQ(parseQ(src), ctx));
  const time = timeCheck(input);
  return (cr) => {
    if (!registrationMatches(cr, filter, { geo })) return false;
    if (time && !time(cr)) return false;
    if (qs.length === 0) return true;
    const props = propertiesOf(cr, ctx);
    return qs.every((q) => matchesQ(props, q));
  };
}
