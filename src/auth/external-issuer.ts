import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from "jose";
import { ROLES, TIERS, type Principal, type Role, type Tier } from "./principal";
import { unauthorized } from "./token-errors";
import { verifyError } from "./access-tokens";

/** Options of {@link ExternalIssuer}. */
export interface ExternalIssuerOptions {
  issuer: string;
  jwksUrl: string;
  audience?: string;
}

/**
 * Tokens of an external OIDC provider (Keycloak, ...), checked against its JWKS (`JWT_ISSUER`,
 * `JWKS_URL`). The role is the claim `role`, or the highest citygraph role in Keycloak's
 * `realm_access.roles`; viewer without one. The tier is the claim `tier` (default basic), the tenants the
 * claim `tenants` (default all).
 */
export class ExternalIssuer {
  private readonly jwks;

  constructor(private readonly opts: ExternalIssuerOptions) {
    this.jwks = createRemoteJWKSet(new URL(opts.jwksUrl));
  }

  /** True when the (unverified) `iss` of `token` is this issuer. */
  claims(token: string): boolean {
    try {
      return decodeJwt(token).iss === this.opts.issuer;
    } catch {
      return false;
    }
  }

  /** The principal of a valid token of this issuer; 401 otherwise. */
  async verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.opts.issuer,
        audience: this.opts.audience,
        algorithms: ["RS256", "ES256", "EdDSA", "PS256"],
      }));
    } catch (e) {
      throw verifyError(e);
    }
    if (typeof payload.sub !== "string") throw unauthorized("Token has no subject");
    const c = payload as JWTPayload & {
      role?: unknown;
      tier?: unknown;
      tenants?: unknown;
      realm_access?: { roles?: unknown };
    };
    const realm = Array.isArray(c.realm_access?.roles) ? (c.realm_access.roles as unknown[]) : [];
    const role: Role =
      typeof c.role === "string" && ROLES.includes(c.role as Role)
        ? (c.role as Role)
        : ([...ROLES].reverse().find((r) => realm.includes(r)) ?? "viewer");
    return {
      id: `${this.opts.issuer}#${payload.sub}`,
      kind: "user",
      name:
        typeof (payload as { preferred_username?: unknown }).preferred_username === "string"
          ? (payload as { preferred_username: string }).preferred_username
          : payload.sub,
      role,
      tier: typeof c.tier === "string" && TIERS.includes(c.tier as Tier) ? (c.tier as Tier) : "basic",
      tenants: Array.isArray(c.tenants) ? c.tenants.filter((t): t is string => typeof t === "string") : [],
    };
  }
}
