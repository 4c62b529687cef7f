import type { Context, Middleware, Next } from "koa";
import type { Audit } from "../../auth/audit";
import type { Credential } from "../../auth/auth-service";
import { checkPermission } from "../../auth/permissions";
import { AUTH_OFF_PRINCIPAL, type Principal } from "../../auth/principal";
import { credentialOf } from "./credentials";
import { requestOf } from "./request-context";
import { accessOf, type RouteAccess, type RoutePermission } from "./route-permissions";
import { admitTenant } from "./tenant";

/** What the gate needs of identity. */
export interface GateAuth {
  authenticate(cred: Credential): Promise<Principal>;
  /** The principal of a credential known already, without a promise; undefined: ask {@link authenticate}. */
  known?(cred: Credential): Principal | undefined;
  audit: Audit;
}

const WRITE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The auth gate of every face (docs/design.md "The request pipeline"): finds the credential, authenticates it
 * (401), applies the tenant rule of the request's face to `NGSILD-Tenant` and the principal's tenants
 * (tenant.ts admitTenant: 403, or 400 for another tenant on a traffic face), checks the route's permission
 * (403), and puts the principal on the request context. Errors are thrown, so each face renders them its
 * own way. Writes that succeed and every 403 go to the audit log. With `auth` undefined (AUTH=off) every
 * request is the anonymous admin. A credential verified before is admitted without a promise of the gate's
 * own: this runs on every request.
 */
export function authGate(auth: GateAuth | undefined, table: readonly RoutePermission[]): Middleware {
  if (!auth) {
    return (ctx: Context, next: Next) => {
      const request = requestOf(ctx);
      request.principal = AUTH_OFF_PRINCIPAL;
      try {
        admitTenant(undefined, request.face, ctx.get("NGSILD-Tenant"));
      } catch (e) {
        return Promise.reject(e as Error);
      }
      return next();
    };
  }
  const admit = (
    ctx: Context,
    next: Next,
    p: Principal,
    access: Exclude<RouteAccess, "open">,
  ): Promise<void> => {
    const request = requestOf(ctx);
    request.principal = p;
    const tenant = ctx.get("NGSILD-Tenant");
    try {
      admitTenant(p, request.face, tenant);
      if (access !== "optional") checkPermission(p, access);
    } catch (e) {
      auth.audit("access-denied", {
        principal: p.id,
        requestId: request.id,
        method: ctx.method,
        path: ctx.path,
        tenant,
      });
      return Promise.reject(e as Error);
    }
    if (!WRITE.has(ctx.method)) return next();
    return next().then(() => {
      if (ctx.status < 400) {
        auth.audit("write", {
          principal: p.id,
          requestId: request.id,
          method: ctx.method,
          path: ctx.path,
          tenant,
          status: ctx.status,
        });
      }
    });
  };
  const openPath = async (ctx: Context, next: Next): Promise<void> => {
    admitTenant(undefined, requestOf(ctx).face, ctx.get("NGSILD-Tenant"));
    // an open path (/health) still learns who asks, if the credential is good
    requestOf(ctx).principal = await Promise.resolve()
      .then(() => auth.authenticate(credentialOf(ctx.headers)))
      .catch(() => undefined);
    return next();
  };
  return (ctx: Context, next: Next) => {
    const access = accessOf(ctx.method, ctx.path, table);
    if (access === "open") return openPath(ctx, next);
    let cred: Credential;
    let p: Principal | undefined;
    try {
      cred = credentialOf(ctx.headers);
      if (access === "optional" && cred.apiKey === undefined && cred.bearer === undefined) {
        admitTenant(undefined, requestOf(ctx).face, ctx.get("NGSILD-Tenant"));
        return next();
      }
      p = auth.known?.(cred);
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return p ? admit(ctx, next, p, access) : auth.authenticate(cred).then((q) => admit(ctx, next, q, access));
  };
}
