import { badRequest } from "../../errors";
import type { Entity } from "./entity";
import { ENTITY_META_MEMBERS } from "./attribute-kinds";
import { isObject, normalizeAttribute } from "./normalize-attribute";
import { isAbsoluteUri, isValidName } from "./uri";
import { refuseReserved } from "./reserved";
import { checkIdLength, ENTITY_LIMITS } from "./limits";

/** What an entity body must carry: an entity for create/upsert, a fragment for updates. */
export type EntityBodyKind = "entity" | "fragment";

/**
 * Validates a request body holding an entity (or an entity fragment for PATCH/append) and returns it
 * normalized (ETSI GS CIM 009 §5.6.1, §5.6.3, §4.5.1). `@context` must already have been taken out.
 * `id`/`@id` and `type`/`@type` are accepted as aliases. Throws 400 BadRequestData on any wrong shape.
 */
export function normalizeEntity(body: unknown, kind: EntityBodyKind): Entity {
  if (!isObject(body)) throw badRequest("The body must be a JSON object");
  const id = body.id ?? body["@id"];
  const type = body.type ?? body["@type"];
  const out: Entity = { id: "", type: [] };
  if (kind === "entity" || id !== undefined) {
    if (!isAbsoluteUri(id)) throw badRequest(`Entity id must be a URI, got ${JSON.stringify(id)}`, { id });
    checkIdLength(id, "Entity id");
    refuseReserved(id, "Entity id");
    out.id = id;
  }
  if (kind === "entity" || type !== undefined) out.type = checkTypes(type);
  else delete (out as Partial<Entity>).type;
  if (body.scope !== undefined) out.scope = checkScopes(body.scope);
  // refused before any attribute is normalized (an attribute costs far more than counting it)
  if (Object.keys(body).length > ENTITY_LIMITS.attributes + ENTITY_META_MEMBERS.size) tooManyAttributes();
  let attributes = 0;
  for (const [name, raw] of Object.entries(body)) {
    if (ENTITY_META_MEMBERS.has(name)) continue;
    if (!isValidName(name)) throw badRequest(`Attribute name ${JSON.stringify(name)} is not valid`, { name });
    if (name.startsWith("@")) throw badRequest(`Member ${name} is not allowed here`);
    if (++attributes > ENTITY_LIMITS.attributes) tooManyAttributes();
    const inst = normalizeAttribute(name, raw);
    out[name] = inst.length === 1 ? inst[0] : inst;
  }
  return out;
}

function tooManyAttributes(): never {
  throw badRequest(`The entity has more than ${ENTITY_LIMITS.attributes} attributes`, {
    limit: ENTITY_LIMITS.attributes,
  });
}

function checkTypes(type: unknown): string | string[] {
  const list = Array.isArray(type) ? type : [type];
  if (list.length === 0) throw badRequest("Entity type must not be empty");
  for (const t of list) {
    if (typeof t !== "string" || !isValidName(t)) {
      throw badRequest(`Entity type must be a valid name, got ${JSON.stringify(t)}`, { type: t });
    }
  }
  return Array.isArray(type) ? (list as string[]) : (type as string);
}

function checkScopes(scope: unknown): string | string[] {
  const list = Array.isArray(scope) ? scope : [scope];
  for (const s of list) {
    if (typeof s !== "string" || !/^\/[^\s/#+][^\s#+]*$|^\/$/.test(s) || s.endsWith("/")) {
      if (s !== "/")
        throw badRequest(`Scope must be a path such as /Madrid/Gardens, got ${JSON.stringify(s)}`);
    }
  }
  return scope as string | string[];
}

/** True if `v` looks like an entity id (used for batch bodies whose members are validated one by one). */
export function entityIdOf(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  const id = v.id ?? v["@id"];
  return typeof id === "string" ? id : undefined;
}

/** Whether a value is a plain JSON object. */
export { isObject };
