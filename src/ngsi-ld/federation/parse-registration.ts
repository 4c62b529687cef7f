import { badRequest } from "../../errors";
import { isDateTime } from "../model/datetime";
import { geometryError } from "../model/geojson";
import { isObject } from "../model/normalize-attribute";
import { isAbsoluteUri, isValidName } from "../model/uri";
import {
  MODES,
  OPERATION_GROUPS,
  OPERATIONS,
  type ContextSourceManagement,
  type EntityInfo,
  type Mode,
  type Registration,
  type RegistrationInfo,
} from "./registration";

type Obj = Record<string, unknown>;

const fail = (member: string, message: string) => badRequest(message, { member });

/** Members the broker sets, never the client (§5.2.9 system members). */
const READ_ONLY = new Set(["createdAt", "modifiedAt", "status", "timesSent", "timesFailed"]);

function names(v: unknown, path: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0 || v.some((n) => typeof n !== "string" || !isValidName(n))) {
    throw fail(path, `${path} must be a non-empty array of attribute names`);
  }
  return v as string[];
}

function entityInfo(raw: unknown): EntityInfo {
  if (!isObject(raw)) throw fail("information[].entities", "An EntityInfo must be an object");
  const t = raw.type;
  const typeOk = (x: unknown) => typeof x === "string" && x !== "";
  if (!(typeOk(t) || (Array.isArray(t) && t.length > 0 && t.every(typeOk)))) {
    throw fail("information[].entities[].type", "An EntityInfo needs a type");
  }
  const out: EntityInfo = { type: t as string | string[] };
  if (raw.id !== undefined) {
    if (!isAbsoluteUri(raw.id)) throw fail("information[].entities[].id", "EntityInfo id must be a URI");
    out.id = raw.id;
  }
  if (raw.idPattern !== undefined) {
    if (typeof raw.idPattern !== "string")
      throw fail("information[].entities[].idPattern", "idPattern must be a string");
    try {
      new RegExp(raw.idPattern);
    } catch {
      throw fail(
        "information[].entities[].idPattern",
        `idPattern ${raw.idPattern} is not a regular expression`,
      );
    }
    out.idPattern = raw.idPattern;
  }
  return out;
}

function information(raw: unknown): RegistrationInfo[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw fail("information", "A registration needs information: a non-empty array of RegistrationInfo");
  }
  return raw.map((i) => {
    if (!isObject(i)) throw fail("information", "Each RegistrationInfo must be an object");
    const out: RegistrationInfo = {};
    if (i.entities !== undefined) {
      if (!Array.isArray(i.entities) || i.entities.length === 0) {
        throw fail("information[].entities", "information[].entities must be a non-empty array");
      }
      out.entities = i.entities.map(entityInfo);
    }
    const p = names(i.propertyNames, "information[].propertyNames");
    if (p) out.propertyNames = p;
    const r = names(i.relationshipNames, "information[].relationshipNames");
    if (r) out.relationshipNames = r;
    if (!out.entities && !out.propertyNames && !out.relationshipNames) {
      throw fail("information", "A RegistrationInfo needs entities, propertyNames or relationshipNames");
    }
    return out;
  });
}

function interval(raw: unknown, member: string): { startAt?: string; endAt?: string } {
  if (!isObject(raw)) throw fail(member, `${member} must be a TimeInterval`);
  for (const k of ["startAt", "endAt"]) {
    if (raw[k] !== undefined && !isDateTime(raw[k]))
      throw fail(`${member}.${k}`, `${member}.${k} must be a DateTime`);
  }
  return raw as { startAt?: string; endAt?: string };
}

function management(raw: unknown): ContextSourceManagement {
  if (!isObject(raw)) throw fail("management", "management must be an object");
  const out: ContextSourceManagement = {};
  if (raw.localOnly !== undefined) {
    if (typeof raw.localOnly !== "boolean")
      throw fail("management.localOnly", "localOnly must be true or false");
    out.localOnly = raw.localOnly;
  }
  for (const k of ["timeout", "cooldown"] as const) {
    const v = raw[k];
    if (v === undefined) continue;
    if (typeof v !== "number" || !(v > 0))
      throw fail(`management.${k}`, `management.${k} must be a number > 0 (ms)`);
    out[k] = v;
  }
  if (raw.cacheDuration !== undefined) {
    if (typeof raw.cacheDuration !== "string")
      throw fail("management.cacheDuration", "cacheDuration must be a duration");
    out.cacheDuration = raw.cacheDuration;
  }
  return out;
}

function operations(raw: unknown): string[] {
  const known = (o: unknown) =>
    typeof o === "string" && ((OPERATIONS as readonly string[]).includes(o) || o in OPERATION_GROUPS);
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every(known)) {
    throw fail("operations", "operations must be a non-empty array of operations or operation groups");
  }
  return raw as string[];
}

function keyValues(raw: unknown): { key: string; value: string }[] {
  const ok = (x: unknown) => isObject(x) && typeof x.key === "string" && typeof x.value === "string";
  if (!Array.isArray(raw) || !raw.every(ok)) {
    throw fail("contextSourceInfo", "contextSourceInfo must be an array of {key, value} strings");
  }
  return raw as { key: string; value: string }[];
}

function geometry(raw: unknown, member: string): unknown {
  const err = geometryError(raw);
  if (err !== undefined) throw fail(member, `${member} is not a GeoJSON geometry: ${err}`);
  return raw;
}

/**
 * Checks a registration member by member and builds the stored form (ETSI GS CIM 009 v1.8 §5.2.9, §5.9.2:
 * "If the data types and restrictions expressed by clause 5.2.9 are not met, an error of type
 * BadRequestData shall be raised"). Members the spec does not name are kept as context source
 * properties. `now` decides whether `expiresAt` is in the past.
 */
export function parseRegistration(body: unknown, id: string, now: string, createdAt = now): Registration {
  if (!isObject(body)) throw badRequest("A registration must be a JSON object");
  if (body.type !== "ContextSourceRegistration") {
    throw fail("type", 'A registration needs "type": "ContextSourceRegistration"');
  }
  const endpoint = body.endpoint;
  if (typeof endpoint !== "string" || !/^https?:\/\/[^/]/.test(endpoint)) {
    throw fail("endpoint", "A registration needs an http or https endpoint URI");
  }
  const reg: Registration = {
    id,
    type: "ContextSourceRegistration",
    information: information(body.information),
    endpoint,
    createdAt,
    modifiedAt: now,
  };
  for (const [k, v] of Object.entries(body)) {
    if (k in reg || k === "@context" || READ_ONLY.has(k) || v === null) continue;
    switch (k) {
      case "registrationName":
      case "description":
      case "tenant":
      case "refreshRate":
        if (typeof v !== "string" || v === "") throw fail(k, `${k} must be a non-empty string`);
        reg[k] = v;
        break;
      case "observationInterval":
      case "managementInterval":
        reg[k] = interval(v, k);
        break;
      case "location":
      case "observationSpace":
      case "operationSpace":
        reg[k] = geometry(v, k);
        break;
      case "expiresAt":
        if (!isDateTime(v)) throw fail(k, "expiresAt must be a DateTime");
        if (Date.parse(v) <= Date.parse(now)) throw fail(k, "expiresAt is in the past");
        reg.expiresAt = v;
        break;
      case "contextSourceInfo":
        reg.contextSourceInfo = keyValues(v);
        break;
      case "scope":
        reg.scope = v as string | string[];
        break;
      case "mode":
        if (!(MODES as readonly unknown[]).includes(v))
          throw fail(k, `mode must be one of ${MODES.join(", ")}`);
        reg.mode = v as Mode;
        break;
      case "operations":
        reg.operations = operations(v);
        break;
      case "management":
        reg.management = management(v);
        break;
      default:
        if (!isValidName(k)) throw fail(k, `${k} is not a valid member name`);
        reg[k] = v; // a context source property (§5.2.9)
    }
  }
  if ((reg.mode === "exclusive" || reg.mode === "redirect") && reg.information.some((i) => !i.entities)) {
    // §5.9.2: an exclusive or redirect registration names the entities it is for
    throw fail("information", `A ${reg.mode} registration needs entities in every RegistrationInfo`);
  }
  return reg;
}

/**
 * The registration after a PATCH (§5.9.3): each member of the fragment replaces the stored one, a member
 * set to null is removed, then the result is checked whole (so removing a mandatory member is a 400).
 */
export function patchRegistration(current: Registration, fragment: unknown, now: string): Registration {
  if (!isObject(fragment)) throw badRequest("A registration fragment must be a JSON object");
  if (fragment.id !== undefined && fragment.id !== current.id)
    throw fail("id", "The id of a registration cannot change");
  if (fragment.type !== undefined && fragment.type !== "ContextSourceRegistration") {
    throw fail("type", 'The type of a registration is "ContextSourceRegistration"');
  }
  const members = Object.keys(fragment).filter((k) => k !== "@context" && k !== "id" && k !== "type");
  if (members.length === 0) throw badRequest("The fragment changes no registration member");
  const merged: Obj = { ...(current as Obj) };
  for (const k of members) {
    if (fragment[k] === null) delete merged[k];
    else merged[k] = fragment[k];
  }
  // a stored expiresAt that the fragment leaves alone is not checked against now again
  const keep = fragment.expiresAt === undefined ? current.expiresAt : undefined;
  if (keep !== undefined) delete merged.expiresAt;
  const next = parseRegistration(merged, current.id, now, current.createdAt);
  if (keep !== undefined) next.expiresAt = keep;
  return next;
}
