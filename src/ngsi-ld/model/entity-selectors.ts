import { badRequest } from "../../errors";
import { isObject } from "./normalize-attribute";
import { isAbsoluteUri } from "./uri";

/** An EntitySelector (ETSI GS CIM 009 v1.8 §5.2.33) as a Query body or a Subscription carries it. */
export interface EntitySelectorMember {
  type: string;
  id?: string;
  idPattern?: string;
}

const fail = (member: string, message: string) => badRequest(message, { member });

/**
 * The `entities` member of a Query (§5.2.23) or a Subscription (§5.2.12): undefined when absent, else
 * a non-empty array of selectors, each with a type, an optional URI id and an optional idPattern.
 */
export function entitySelectors(raw: unknown): EntitySelectorMember[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.length === 0) {
    throw fail("entities", "entities must be a non-empty array of EntitySelectors");
  }
  return raw.map((e: unknown) => {
    if (!isObject(e)) throw fail("entities", "Each member of entities must be an EntitySelector object");
    const type = text(e.type, "entities[].type");
    if (type === undefined) throw fail("entities[].type", "An EntitySelector needs a type");
    const out: EntitySelectorMember = { type };
    if (e.id !== undefined) {
      if (!isAbsoluteUri(e.id))
        throw fail("entities[].id", `entities[].id ${JSON.stringify(e.id)} is not a URI`);
      out.id = e.id;
    }
    const idPattern = text(e.idPattern, "entities[].idPattern");
    if (idPattern !== undefined) out.idPattern = idPattern;
    return out;
  });
}

function text(v: unknown, path: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v === "") throw fail(path, `${path} must be a non-empty string`);
  return v;
}
