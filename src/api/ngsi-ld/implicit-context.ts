import type { Context } from "koa";
import { serverOrigin } from "../http/server-origin";

/** What the subscription routes need of the @context registry (src/rdf/contexts/registry.ts). */
export interface ImplicitContexts {
  addImplicit(tenant: string, context: unknown): Promise<{ location: string }>;
  isImplicit(tenant: string, url: string): boolean;
  removeImplicit(tenant: string, url: string): Promise<void>;
}

/** A body with the `jsonldContext` it is to carry, the ImplicitlyCreated @context made for it, the one it replaces. */
export interface WithImplicit {
  body: unknown;
  created?: string;
  replaced?: string;
}

/** True for an @context no single URL names: an object, or an array other than one URL. */
export function needsImplicitContext(value: unknown): boolean {
  if (Array.isArray(value)) return !(value.length === 1 && typeof value[0] === "string");
  return typeof value === "object" && value !== null;
}

/**
 * ETSI GS CIM 009 v1.8 §5.13.1: a subscription made (or patched) with an array or object @context and no
 * `jsonldContext` of its own gets an ImplicitlyCreated @context holding that @context, and its absolute
 * URL, on this server as the client reached it, as its `jsonldContext` (§5.2.12: the @context of its
 * notifications). On a PATCH, a `jsonldContext` the client chose stays; an implicit one is replaced, or
 * dropped when the new @context is a single URL. A body that changes no member is left as it is.
 */
export async function withImplicitContext(
  ctx: Context,
  implicit: ImplicitContexts | undefined,
  tenant: string,
  context: unknown,
  body: unknown,
  current?: string,
): Promise<WithImplicit> {
  if (!implicit || context === undefined || !changesMembers(body) || "jsonldContext" in body) return { body };
  const currentIsImplicit = current !== undefined && implicit.isImplicit(tenant, current);
  if (current !== undefined && !currentIsImplicit) return { body };
  const replaced = currentIsImplicit ? current : undefined;
  if (!needsImplicitContext(context))
    return replaced ? { body: { ...body, jsonldContext: null }, replaced } : { body };
  const { location } = await implicit.addImplicit(tenant, context);
  const created = `${serverOrigin(ctx)}${location}`;
  return { body: { ...body, jsonldContext: created }, created, replaced };
}

function changesMembers(body: unknown): body is Record<string, unknown> {
  if (typeof body !== "object" || body === null) return false;
  return Object.keys(body).some((k) => k !== "@context" && k !== "id" && k !== "type");
}
