import type { Context } from "koa";
import { badRequest } from "../../errors";

const TENANT = /^[A-Za-z0-9_\-.:/]{1,64}$/;

/**
 * The tenant of a request from its `NGSILD-Tenant` header (ETSI GS CIM 009 v1.8 §6.3.14), "" (the
 * default tenant) without one; 400 for a malformed name. Every face selects tenants this way.
 */
export function tenantOf(ctx: Context): string {
  const t = ctx.get("NGSILD-Tenant");
  if (t && !TENANT.test(t)) throw badRequest(`NGSILD-Tenant ${JSON.stringify(t)} is not a valid tenant name`);
  return t;
}
