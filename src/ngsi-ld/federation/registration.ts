/**
 * The CSourceRegistration data type as the broker keeps it (ETSI GS CIM 009 v1.8 §5.2.9
 * CSourceRegistration, §5.2.10 RegistrationInfo, §5.2.8 EntityInfo, §5.2.34 ContextSourceManagement),
 * with the names as the client wrote them and the @context of the request that made it beside them.
 */

/** The write operations of Table 4.3.6.2-1, which redirection forwards. */
const WRITES = [
  "createEntity",
  "updateEntity",
  "appendAttrs",
  "updateAttrs",
  "deleteAttrs",
  "deleteEntity",
  "mergeEntity",
  "replaceEntity",
  "replaceAttrs",
  "purgeEntity",
  "createBatch",
  "upsertBatch",
  "updateBatch",
  "deleteBatch",
  "mergeBatch",
] as const;

const DISCOVERY = [
  "retrieveEntityTypes",
  "retrieveEntityTypeDetails",
  "retrieveEntityTypeInfo",
  "retrieveAttrTypes",
  "retrieveAttrTypeDetails",
  "retrieveAttrTypeInfo",
] as const;

const SUBSCRIPTIONS = [
  "createSubscription",
  "updateSubscription",
  "retrieveSubscription",
  "querySubscription",
  "deleteSubscription",
] as const;

/** The operations a registration may name (§4.3.6.2 Table 4.3.6.2-1), groups excluded. */
export const OPERATIONS = [
  ...WRITES,
  "retrieveEntity",
  "queryEntity",
  "queryBatch",
  "retrieveTemporal",
  "queryTemporal",
  ...DISCOVERY,
  ...SUBSCRIPTIONS,
] as const;
/** One operation. */
export type Operation = (typeof OPERATIONS)[number];

/** The operation groups (§4.3.6.3 Table 4.3.6.3-1) and the operations each stands for. */
export const OPERATION_GROUPS: Record<string, readonly Operation[]> = {
  federationOps: ["retrieveEntity", "queryEntity", "queryBatch", ...DISCOVERY, ...SUBSCRIPTIONS],
  updateOps: ["updateEntity", "updateAttrs", "replaceEntity", "replaceAttrs"],
  retrieveOps: ["retrieveEntity", "queryEntity"],
  redirectionOps: [...WRITES, "retrieveEntity", "queryEntity", ...DISCOVERY],
};

/** Registration modes (§4.3.6.1). */
export const MODES = ["inclusive", "exclusive", "redirect", "auxiliary"] as const;
/** One mode. */
export type Mode = (typeof MODES)[number];

/** EntityInfo (§5.2.8). */
export interface EntityInfo {
  id?: string;
  idPattern?: string;
  type: string | string[];
}

/** RegistrationInfo (§5.2.10). */
export interface RegistrationInfo {
  entities?: EntityInfo[];
  propertyNames?: string[];
  relationshipNames?: string[];
}

/** ContextSourceManagement (§5.2.34): timeouts in ms, cacheDuration as written. */
export interface ContextSourceManagement {
  localOnly?: boolean;
  cacheDuration?: string;
  timeout?: number;
  cooldown?: number;
}

/** A registration as stored (§5.2.9), system members included; other members are CSource properties. */
export interface Registration {
  id: string;
  type: "ContextSourceRegistration";
  registrationName?: string;
  description?: string;
  information: RegistrationInfo[];
  tenant?: string;
  observationInterval?: { startAt?: string; endAt?: string };
  managementInterval?: { startAt?: string; endAt?: string };
  location?: unknown;
  observationSpace?: unknown;
  operationSpace?: unknown;
  expiresAt?: string;
  endpoint: string;
  contextSourceInfo?: { key: string; value: string }[];
  scope?: string | string[];
  mode?: Mode;
  operations?: string[];
  refreshRate?: string;
  management?: ContextSourceManagement;
  createdAt: string;
  modifiedAt: string;
  /** Context source properties (§5.2.9 "Any other member"), as written. */
  [property: string]: unknown;
}

/** One stored registration with its tenant and the @context its names are in. */
export interface RegistrationRecord {
  tenant: string;
  reg: Registration;
  /** The @context value of the request (URL, array, object) or undefined for the core context. */
  context: unknown;
}

/** The mode of a registration (§5.2.9: inclusive by default). */
export const modeOf = (r: Registration): Mode => r.mode ?? "inclusive";

/** The operations a registration supports, groups expanded (§5.2.9: federationOps by default). */
export function operationsOf(r: Registration): Set<Operation> {
  const out = new Set<Operation>();
  for (const op of r.operations ?? ["federationOps"]) {
    for (const o of OPERATION_GROUPS[op] ?? [op as Operation]) out.add(o);
  }
  return out;
}

/** True when the registration has expired at `now` (§5.2.9 expiresAt). */
export const isExpired = (r: Registration, now = Date.now()): boolean =>
  r.expiresAt !== undefined && Date.parse(r.expiresAt) <= now;
