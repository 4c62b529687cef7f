import { AppError } from "../errors";
import { mayUseTenant, type Principal } from "./principal";

/**
 * The tenant rule for what an admin does beyond one request's tenant (docs/auth.md "Tenants"): an admin
 * limited to some tenants manages only users and keys within them, grants only them, and leaves what spans
 * the whole service (backups, signing keys, metrics) to an admin of every tenant.
 */

/** True when `principal` may use every tenant (its list is empty). */
export function servesAllTenants(principal: Principal): boolean {
  return principal.tenants.length === 0;
}

/** True when every tenant that the list `tenants` opens (empty = all) is open to `principal`. */
export function coversTenants(principal: Principal, tenants: readonly string[]): boolean {
  if (servesAllTenants(principal)) return true;
  return tenants.length > 0 && tenants.every((t) => mayUseTenant(principal, t));
}

/** Throws AccessDenied (403) unless `principal` holds every tenant it would give with `tenants`. */
export function checkGrant(principal: Principal, tenants: readonly string[]): void {
  if (!coversTenants(principal, tenants))
    throw new AppError(
      "AccessDenied",
      tenants.length === 0
        ? `Every tenant (tenants absent or []) is given only by an admin of every tenant: name some of ${JSON.stringify(principal.tenants)}`
        : `Tenants ${JSON.stringify(tenants.filter((t) => !mayUseTenant(principal, t)))} are not open to this ${principal.kind}`,
      { parameter: "tenants", value: tenants, allowed: principal.tenants },
    );
}

/** Throws AccessDenied (403) unless `principal` may use every tenant: `what` spans the whole service. */
export function checkAllTenants(principal: Principal, what: string): void {
  if (!servesAllTenants(principal))
    throw new AppError("AccessDenied", `${what} spans every tenant: it needs an admin of every tenant`, {
      tenants: principal.tenants,
    });
}
