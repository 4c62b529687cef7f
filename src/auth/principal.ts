/** Roles, in increasing power (docs/auth.md "Roles and permissions"). */
export const ROLES = ["viewer", "operator", "admin"] as const;
/** One role. */
export type Role = (typeof ROLES)[number];

/** Rate-limit tiers (docs/auth.md "Rate limits"). */
export const TIERS = ["free", "basic", "premium", "enterprise"] as const;
/** One tier. */
export type Tier = (typeof TIERS)[number];

/** Who made a request, once the auth gate has run. */
export interface Principal {
  /** User or API key id ("anonymous" when auth is off). */
  id: string;
  /** `service`: the service's own clients (the demo feeder), holding tokens signed in process. */
  kind: "user" | "api-key" | "service" | "anonymous";
  /** Username, API key name, or the external token's subject. */
  name?: string;
  role: Role;
  /** Rate-limit tier; undefined = not limited. */
  tier?: Tier;
  /** NGSI-LD tenants the principal may use; empty = all. */
  tenants: readonly string[];
  /** The refresh-token family an access token belongs to (logout revokes it). */
  session?: string;
}

/** The principal of every request when `AUTH=off`: may do anything, is never rate limited. */
export const AUTH_OFF_PRINCIPAL: Principal = Object.freeze({
  id: "anonymous",
  kind: "anonymous",
  role: "admin",
  tenants: [],
});

/** True when `principal` may use `tenant` ("" is the default tenant). */
export function mayUseTenant(principal: Principal, tenant: string): boolean {
  return principal.tenants.length === 0 || principal.tenants.includes(tenant);
}
