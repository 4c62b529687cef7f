import type { Context, Middleware, Next } from "koa";
import type { Audit } from "../../auth/audit";
import type { Credential } from "../../auth/auth-service";
import { checkPermission } from "../../auth/permissions";
import { AUTH_OFF_PRINCIPAL, mayUseTenant, type Principal } from "../../auth/principal";
import { AppError } from "../../errors";
import { credentialOf } from "./credentials";
import { requestOf } from "./request-context";
import { accessOf, type RoutePermission } from "./route-permissions";

/** What the gate needs of identity. */
export interface GateAuth {
  authenticate(cred: Credential): Promise<Principal>;
  audit: Audit;
}

const WRITE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The auth gate of every face (docs/design.md "The request pipeline"): finds the credential, authenticates it
 * (401), checks the tenant of `NGSILD-Tenant` against the principal's tenants and the route's permission
 * (403), and puts the principal on the request context. Errors are thrown, so each face renders them its
 * own way. Writes that succeed and every 403 go to the audit log. With `auth` undefined (AUTH=off) every
 * request is the anonymous admin.
 */
export function authGate(auth: GateAuth | undefined, table: readonly RoutePermission[]): Middleware {
  if (!auth) {
    return async (ctx: Context, next: Next) => {
      requestOf(ctx).principal = AUTH_OFF_PRINCIPAL;
      await next();
    };
  }
  return async (ctx: Context, next: Next) => {
    const request = requestOf(ctx);
    const access = accessOf(ctx.method, ctx.path, table);
    if (access === "open") {
      // an open path (/health) still learns who asks, if the credential is good
      request.principal = await Promise.resolve()
        .then(() => auth.authenticate(credentialOf(ctx.headers)))
        .catch(() => undefined);
      return next();
    }
    const cred = credentialOf(ctx.headers);
    if (access === "optional" && cred.apiKey === undefined && cred.bearer === undefined) return next();
    const p = await auth.authenticate(cred);
    request.principal = p;
    const tenant = ctx.get("NGSILD-Tenant");
    try {
      if (!mayUseTenant(p, tenant)) {
        throw new AppError("AccessDenied", `Tenant ${JSON.stringify(tenant)} is not open to this ${p.kind}`, {
          tenant,
        });
      }
      if (access !== "optional") checkPermission(p, access);
    } catch (e) {
      auth.audit("access-denied", {
        principal: p.id,
        requestId: request.id,
        method: ctx.method,
        path: ctx.path,
        tenant,
      });
      throw e;
    }
    await next();
    if (WRITE.has(ctx.method) && ctx.status < 400) {
      auth.audit("write", {
        principal: p.id,
        requestId: request.id,
        method: ctx.method,
        path: ctx.path,
        tenant,
        status: ctx.status,
      });
    }
  };
}
