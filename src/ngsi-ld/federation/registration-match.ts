import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { leavesOf } from "../query/expression";
import { matchesGeoQuery } from "../query/geo";
import type { EntityFilter, EntitySelector } from "../query/query-filter";
import { matchesTypes } from "../query/type-expression";
import { isExpired, operationsOf, type Operation, type RegistrationRecord } from "./registration";

/** One EntityInfo with its types expanded and its idPattern compiled. */
interface CompiledEntityInfo {
  types: string[];
  id?: string;
  idPattern?: RegExp;
}

/** One RegistrationInfo with its names expanded (undefined = every attribute of the entities). */
export interface CompiledInfo {
  entities?: CompiledEntityInfo[];
  names?: Set<string>;
}

/** A registration made ready for matching: names expanded with its @context, operations expanded. */
export interface CompiledRegistration {
  record: RegistrationRecord;
  ctx: CompiledContext;
  infos: CompiledInfo[];
  ops: Set<Operation>;
}

/** Compiles a registration with the @context its names are in. */
export function compileRegistration(record: RegistrationRecord, ctx: CompiledContext): CompiledRegistration {
  const infos = record.reg.information.map((i) => {
    const names = [...(i.propertyNames ?? []), ...(i.relationshipNames ?? [])].map((n) => ctx.expandTerm(n));
    const out: CompiledInfo = {};
    if (names.length) out.names = new Set(names);
    if (i.entities) {
      out.entities = i.entities.map((e) => {
        const types = (Array.isArray(e.type) ? e.type : [e.type]).map((t) => ctx.expandTerm(t));
        return {
          types,
          id: e.id,
          idPattern: e.idPattern !== undefined ? new RegExp(e.idPattern) : undefined,
        };
      });
    }
    return out;
  });
  return { record, ctx, infos, ops: operationsOf(record.reg) };
}

/**
 * True if an EntityInfo may describe entities a selector asks for (§5.12 step 1): the types meet; an id
 * asked for is the EntityInfo's id or matches its idPattern (or the EntityInfo names neither); an
 * idPattern asked for matches the EntityInfo's id (patterns cannot be compared: they may meet).
 */
function entityInfoMeets(e: CompiledEntityInfo, s: EntitySelector): boolean {
  if (s.types && !matchesTypes(s.types, e.types)) return false;
  if (s.ids) {
    const idOk = (id: string) =>
      e.id !== undefined ? e.id === id : e.idPattern !== undefined ? e.idPattern.test(id) : true;
    if (!s.ids.some(idOk)) return false;
  }
  if (s.idPattern && e.id !== undefined && !s.idPattern.test(e.id)) return false;
  return true;
}

/** The expanded attribute names a filter needs: `attrs`, and the attributes of `q`. */
function namesAskedFor(f: EntityFilter): string[] | undefined {
  const names = [...(f.attrs?.iris ?? [])];
  if (f.q) for (const t of leavesOf(f.q)) names.push(t.path.attrIri);
  return names.length ? names : undefined;
}

/**
 * True if one RegistrationInfo may hold entities of the filter (§5.12): some EntityInfo meets some
 * selector (an info without entities holds every entity with its names), and it provides one of the
 * attributes asked for (an info without names provides every attribute).
 */
export function infoMatches(info: CompiledInfo, f: EntityFilter): boolean {
  if (f.selectors && info.entities) {
    const meets = info.entities.some((e) => f.selectors!.some((s) => entityInfoMeets(e, s)));
    if (!meets) return false;
  }
  const asked = namesAskedFor(f);
  if (asked && info.names && !asked.some((n) => info.names!.has(n))) return false;
  return true;
}

/** What a registration is matched against beside the entity filter. */
export interface RegistrationFilter {
  /** A geo-query on the registration's `location` (§5.10.1). */
  geo?: EntityFilter["geo"];
  /** A q over the context source properties (csf, §4.9 on the registration's own members). */
  csf?: (r: RegistrationRecord) => boolean;
  /** Only registrations supporting this operation. */
  operation?: Operation;
  now?: number;
}

/**
 * True if the registration is relevant to an entity filter (ETSI GS CIM 009 v1.8 §5.12 "Context source
 * discovery"): not expired, supports the operation, matches csf and geo, and one RegistrationInfo
 * matches.
 */
export function registrationMatches(
  cr: CompiledRegistration,
  f: EntityFilter,
  rf: RegistrationFilter = {},
): boolean {
  if (isExpired(cr.record.reg, rf.now)) return false;
  if (rf.operation && !cr.ops.has(rf.operation)) return false;
  if (rf.csf && !rf.csf(cr.record)) return false;
  if (rf.geo && !(cr.record.reg.location !== undefined && matchesGeoQuery(cr.record.reg.location, rf.geo))) {
    return false;
  }
  return cr.infos.some((i) => infoMatches(i, f));
}

/** The RegistrationInfo elements of a registration that match the filter (§5.11.7 "relevant information"). */
export function matchingInfos(cr: CompiledRegistration, f: EntityFilter): number[] {
  const out: number[] = [];
  cr.infos.forEach((info, i) => {
    if (infoMatches(info, f)) out.push(i);
  });
  return out;
}
