import type { Context } from "koa";
import { mayUseTenant, type Principal } from "../../auth/principal";
import { AppError, badRequest } from "../../errors";
import type { FaceName } from "./request-context";

const TENANT = /^[A-Za-z0-9_\-.:/]{1,64}$/;

/**
 * The faces of the traffic city (REST A and B, GraphQL, `/ws`, Open311, the dashboard; citizen reports,
 * their review and alerts live under REST A and B): they serve the default tenant only (docs/auth.md
 * "Tenants"). The NGSI-LD, SPARQL and notification faces serve the tenant a request names.
 */
export const TRAFFIC_FACES: ReadonlySet<FaceName> = new Set<FaceName>([
  "rest-a",
  "rest-b",
  "graphql",
  "ws",
  "open311",
  "dashboard",
]);

/**
 * The tenant of a request from its `NGSILD-Tenant` header (ETSI GS CIM 009 v1.8 §6.3.14), "" (the
 * default tenant) without one; 400 for a malformed name. Every face selects tenants this way.
 */
export function tenantOf(ctx: Context): string {
  const t = ctx.get("NGSILD-Tenant");
  if (t && !TENANT.test(t)) throw badRequest(`NGSILD-Tenant ${JSON.stringify(t)} is not a valid tenant name`);
  return t;
}

/**
 * The tenant rule of every face, HTTP and sockets alike (docs/auth.md "Tenants"). On a traffic face: 403
 * for a principal whose tenants leave out the default one, whatever it sends, then 400 for a request that
 * names another tenant. On the other faces: 403 for a tenant outside the principal's list. `principal`
 * undefined: no credential was checked (an open path), so only the tenant the request names is judged.
 */
export function admitTenant(principal: Principal | undefined, face: FaceName, requested: string): void {
  if (TRAFFIC_FACES.has(face)) {
    if (principal && !mayUseTenant(principal, ""))
      throw new AppError(
        "AccessDenied",
        `The ${face} face serves the default tenant only, which is not open to this ${principal.kind}`,
        { tenant: "" },
      );
    if (requested !== "")
      throw badRequest(
        `The ${face} face serves the default tenant only: NGSILD-Tenant ${JSON.stringify(requested)} is not accepted`,
        { parameter: "NGSILD-Tenant", value: requested, expected: "no NGSILD-Tenant header" },
      );
  } else if (principal && !mayUseTenant(principal, requested))
    throw new AppError(
      "AccessDenied",
      `Tenant ${JSON.stringify(requested)} is not open to this ${principal.kind}`,
      { tenant: requested },
    );
}
