import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { RegistrationInfo } from "./registration";
import type { CompiledRegistration } from "./registration-match";

/**
 * A registration as the API shows it (ETSI GS CIM 009 v1.8 §5.2.9, §5.10.1): its members with the names
 * (entity types, propertyNames, relationshipNames, context source properties) compacted with the
 * request's @context, `mode` and `operations` with their defaults, createdAt and modifiedAt only with
 * `sysAttrs`. `only` keeps the RegistrationInfo elements of those indexes (csource notifications,
 * §5.11.7).
 */
export function registrationView(
  cr: CompiledRegistration,
  request: CompiledContext,
  sysAttrs: boolean,
  only?: number[],
): Record<string, unknown> {
  const stored = cr.ctx;
  const same = stored.key === request.key;
  const name = (n: string) => (same ? n : request.compactIri(stored.expandTerm(n)));
  const { createdAt, modifiedAt, information, ...rest } = cr.record.reg;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) out[REGISTRATION_MEMBERS.has(k) ? k : name(k)] = v;
  const infos = only ? only.map((i) => information[i]) : information;
  out.information = infos.map((i: RegistrationInfo) => {
    const o: Record<string, unknown> = {};
    if (i.entities) {
      o.entities = i.entities.map((e) => ({
        ...e,
        type: Array.isArray(e.type) ? e.type.map(name) : name(e.type),
      }));
    }
    if (i.propertyNames) o.propertyNames = i.propertyNames.map(name);
    if (i.relationshipNames) o.relationshipNames = i.relationshipNames.map(name);
    return o;
  });
  out.mode ??= "inclusive";
  out.operations ??= ["federationOps"];
  if (sysAttrs) {
    out.createdAt = createdAt;
    out.modifiedAt = modifiedAt;
  }
  return out;
}

/** Members of §5.2.9 (never compacted as context source properties). */
export const REGISTRATION_MEMBERS: ReadonlySet<string> = new Set([
  "id",
  "type",
  "registrationName",
  "description",
  "tenant",
  "observationInterval",
  "managementInterval",
  "location",
  "observationSpace",
  "operationSpace",
  "expiresAt",
  "endpoint",
  "contextSourceInfo",
  "scope",
  "mode",
  "operations",
  "refreshRate",
  "management",
]);
