import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { canonicalizeEntity } from "../../ngsi-ld/model/canonical-names";
import type { Entity } from "../../ngsi-ld/model/entity";
import { EntityBodyKind, isObject, normalizeEntity } from "../../ngsi-ld/model/normalize-entity";
import { ngsiState } from "./ngsi-state";

/**
 * The request body, which must be a JSON object (400 of `kind` otherwise: entities answer InvalidRequest,
 * subscriptions and registrations BadRequestData), @context included.
 */
export function jsonObjectBody(
  ctx: Context,
  kind: "InvalidRequest" | "BadRequestData" = "InvalidRequest",
): Record<string, unknown> {
  const body = ngsiState(ctx).body;
  if (!isObject(body)) throw new AppError(kind, "The body must be a JSON object");
  return body;
}

/** The request body as a JSON object without its @context; 400 if there is no object body. */
export function objectBody(ctx: Context): Record<string, unknown> {
  const { "@context": _c, ...rest } = jsonObjectBody(ctx);
  return rest;
}

/** Validates and normalizes a body holding an entity or fragment, with names canonical for `ldc`. */
export function entityFromBody(
  raw: Record<string, unknown>,
  kind: EntityBodyKind,
  ldc: CompiledContext,
): Entity {
  const e = normalizeEntity(raw, kind);
  for (const t of e.type === undefined ? [] : Array.isArray(e.type) ? e.type : [e.type]) {
    const iri = ldc.expandTerm(t);
    if (iri.startsWith("@") || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(iri)) {
      throw badRequest(`Entity type ${t} does not expand to an IRI (it gives ${iri})`, { type: t });
    }
  }
  return canonicalizeEntity(e, ldc);
}
