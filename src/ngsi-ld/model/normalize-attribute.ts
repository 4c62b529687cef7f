import { badRequest } from "../../errors";
import {
  ATTRIBUTE_META_MEMBERS,
  ATTRIBUTE_VALUE_MEMBER,
  AttributeKind,
  isAttributeKind,
} from "./attribute-kinds";
import { isDateTime } from "./datetime";
import { geometryError } from "./geojson";
import { isAbsoluteUri, isValidName } from "./uri";
import { ENTITY_LIMITS } from "./limits";

/** The NGSI-LD null (ETSI GS CIM 009 v1.8 §4.5.0): as a value it deletes what it is merged into. */
export const NGSI_LD_NULL = "urn:ngsi-ld:null";

/** A normalized attribute instance: an object whose `type` is one of the eight kinds. */
export type AttributeInstance = { type: AttributeKind; [member: string]: unknown };

/** Members whose presence alone says the kind of a concise attribute (§4.5 "concise representation"). */
const KIND_BY_MEMBER: [string, AttributeKind][] = [
  ["object", "Relationship"],
  ["languageMap", "LanguageProperty"],
  ["vocab", "VocabProperty"],
  ["json", "JsonProperty"],
  ["valueList", "ListProperty"],
  ["objectList", "ListRelationship"],
  ["value", "Property"],
];

const GEOMETRY_TYPES = new Set([
  "Point",
  "MultiPoint",
  "LineString",
  "MultiLineString",
  "Polygon",
  "MultiPolygon",
  "GeometryCollection",
]);

/** Attributes that the spec reserves as GeoProperties (ETSI GS CIM 009 §4.7.1). */
const GEO_ATTRIBUTES = new Set(["location", "observationSpace", "operationSpace"]);

/** True for a plain JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Turns one attribute of a request body, normalized or concise (ETSI GS CIM 009 §4.5.1, §4.5.2,
 * §5.5.x "concise"), into an array of normalized instances, validating its shape. Throws a 400
 * BadRequestData naming the attribute for any wrong shape, so that nothing is stored.
 *
 * `path` is the dotted attribute path used in error messages.
 */
export function normalizeAttribute(path: string, raw: unknown): AttributeInstance[] {
  if (Array.isArray(raw)) {
    if (
      raw.length > 0 &&
      raw.every((x) => isObject(x) && (isAttributeKind(x.type) || kindOf(x) !== undefined))
    ) {
      if (raw.length > ENTITY_LIMITS.instances) {
        throw badRequest(`Attribute ${path} has more than ${ENTITY_LIMITS.instances} instances`, {
          attribute: path,
          limit: ENTITY_LIMITS.instances,
        });
      }
      const instances = raw.map((x) => normalizeInstance(path, x));
      checkDatasetIds(path, instances);
      return instances;
    }
    return [normalizeInstance(path, { type: "Property", value: raw })];
  }
  return [normalizeInstance(path, raw)];
}

function kindOf(o: Record<string, unknown>): AttributeKind | undefined {
  for (const [member, kind] of KIND_BY_MEMBER) if (member in o) return kind;
  return undefined;
}

function normalizeInstance(path: string, raw: unknown): AttributeInstance {
  const name = path.split(".").pop() ?? path;
  if (raw === null || raw === undefined)
    throw badRequest(`Attribute ${path} has a null value`, { attribute: path });
  if (!isObject(raw)) return { type: "Property", value: raw };
  let inst: Record<string, unknown>;
  if (isAttributeKind(raw.type)) inst = { ...raw };
  else if (typeof raw.type === "string" && GEOMETRY_TYPES.has(raw.type) && "coordinates" in raw) {
    inst = { type: "GeoProperty", value: raw };
  } else if (raw.type !== undefined && kindOf(raw) !== undefined) {
    throw badRequest(`Attribute ${path} has an unknown type ${JSON.stringify(raw.type)}`, {
      attribute: path,
    });
  } else if ("@value" in raw) inst = { type: "Property", value: raw };
  else {
    const kind = kindOf(raw);
    inst = kind ? { ...raw, type: kind } : { type: "Property", value: raw };
  }
  if (GEO_ATTRIBUTES.has(name) && inst.type === "Property" && isObject(inst.value)) {
    const v = inst.value;
    if (typeof v.type === "string" && GEOMETRY_TYPES.has(v.type)) inst.type = "GeoProperty";
  }
  checkInstance(path, inst as AttributeInstance);
  return inst as AttributeInstance;
}

function checkInstance(path: string, inst: AttributeInstance): void {
  const fail = (why: string): never => {
    throw badRequest(`Attribute ${path}: ${why}`, { attribute: path });
  };
  const member = ATTRIBUTE_VALUE_MEMBER[inst.type];
  const v = inst[member];
  if (v === undefined || v === null) fail(`a ${inst.type} needs a non-null "${member}"`);
  const name = path.split(".").pop() ?? path;
  const isNull = v === NGSI_LD_NULL || (isObject(v) && v["@none"] === NGSI_LD_NULL);
  if (GEO_ATTRIBUTES.has(name) && inst.type !== "GeoProperty" && !isNull)
    fail(`${name} must be a GeoProperty`);
  switch (isNull ? "null" : inst.type) {
    case "Relationship": {
      const objs = Array.isArray(v) ? v : [v];
      if (objs.length === 0 || !objs.every(isAbsoluteUri)) fail(`"object" must be a URI or an array of URIs`);
      break;
    }
    case "GeoProperty": {
      const e = geometryError(v);
      if (e) fail(e);
      break;
    }
    case "LanguageProperty":
      if (!isObject(v) || !Object.values(v).every((s) => typeof s === "string" || isStringArray(s))) {
        fail(`"languageMap" must map language tags to strings`);
      }
      break;
    case "VocabProperty":
      if (!(typeof v === "string" || isStringArray(v)))
        fail(`"vocab" must be a string or an array of strings`);
      break;
    case "ListProperty":
      if (!Array.isArray(v)) fail(`"valueList" must be an array`);
      break;
    case "ListRelationship":
      if (
        !Array.isArray(v) ||
        !v.every((o) => isAbsoluteUri(o) || (isObject(o) && isAbsoluteUri(o.object)))
      ) {
        fail(`"objectList" must be an array of URIs`);
      }
      break;
    default:
      break;
  }
  if (inst.observedAt !== undefined && !isDateTime(inst.observedAt)) fail(`observedAt must be a DateTime`);
  if (inst.datasetId !== undefined && !isAbsoluteUri(inst.datasetId)) fail(`datasetId must be a URI`);
  if (inst.unitCode !== undefined && typeof inst.unitCode !== "string") fail(`unitCode must be a string`);
  delete inst.createdAt;
  delete inst.modifiedAt;
  delete inst.instanceId;
  for (const key of Object.keys(inst)) {
    if (ATTRIBUTE_META_MEMBERS.has(key)) continue;
    if (key.startsWith("@")) fail(`member ${key} is not allowed in an attribute`);
    if (!isValidName(key)) fail(`sub-attribute name ${JSON.stringify(key)} has forbidden characters`);
    const subs = normalizeAttribute(`${path}.${key}`, inst[key]);
    inst[key] = subs.length === 1 ? subs[0] : subs;
  }
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === "string");
}

function checkDatasetIds(path: string, instances: AttributeInstance[]): void {
  const seen = new Set<string>();
  for (const i of instances) {
    const key = typeof i.datasetId === "string" ? i.datasetId : "@default";
    if (seen.has(key)) {
      throw badRequest(`Attribute ${path} has two instances with datasetId ${key}`, { attribute: path });
    }
    seen.add(key);
  }
}
