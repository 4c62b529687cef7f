import { createHash, randomUUID } from "node:crypto";
import { SignJWT, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";
import { ROLES, TIERS, type Principal, type Role, type Tier } from "./principal";
import { SIGNING_ALG, type SigningKeys } from "./signing-keys";
import { unauthorized } from "./token-errors";

/** `iss` and `aud` of the tokens citygraph signs. */
export const TOKEN_ISSUER = "urn:citygraph";
/** A token longer than this is refused before any parsing (a JWT of ours is ~500 characters). */
export const MAX_TOKEN_CHARS = 4096;
/** Verified tokens kept so that a token's signature is checked once (~400 µs), not at every request. */
const CACHE_ENTRIES = 10_000;

interface Claims extends JWTPayload {
  kind: Principal["kind"];
  name?: string;
  role: Role;
  tier?: Tier;
  ten: string[];
  sid?: string;
}

/** SHA-256 of a secret, base64url: how tokens and keys are looked up without being kept. */
export const sha256 = (s: string): string => createHash("sha256").update(s).digest("base64url");

/**
 * Access tokens (docs/auth.md "Roles and permissions"): JWTs signed with the current EdDSA key, `kid` in
 * the header, the principal's role, tier and tenants in the claims. Verification accepts only EdDSA and a
 * `kid` of {@link SigningKeys}; a verified token is cached until it expires.
 */
export class AccessTokens {
  private readonly cache = new Map<string, { token: string; principal: Principal; expMs: number }>();

  constructor(
    private readonly keys: SigningKeys,
    readonly ttlS: number,
  ) {}

  /** Signs a token for `p`. */
  async issue(p: Principal): Promise<string> {
    const key = this.keys.current;
    const claims: Claims = {
      kind: p.kind,
      name: p.name,
      role: p.role,
      tier: p.tier,
      ten: [...p.tenants],
      sid: p.session,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: "JWT" })
      .setSubject(p.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_ISSUER)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${this.ttlS}s`)
      .sign(key.privateKey);
  }

  /** True when `token` claims to be one of ours (its `kid` is one of our keys). */
  isOurs(token: string): boolean {
    const kid = headerOf(token).kid;
    return typeof kid === "string" && this.keys.byKid(kid) !== undefined;
  }

  /** The principal of a token verified before and not expired, without a promise (the per-request path). */
  cached(token: string, now = Date.now()): Principal | undefined {
    // keyed by the signature (hashing the whole token cost more: docs/decisions/0018-small-hot-path-costs.md),
    // confirmed by the whole token
    const hit = this.cache.get(token.slice(token.lastIndexOf(".") + 1));
    return hit && hit.token === token && hit.expMs > now ? hit.principal : undefined;
  }

  /** The principal of a valid token; 401 with the reason otherwise. */
  async verify(token: string, now = Date.now()): Promise<Principal> {
    const known = this.cached(token, now);
    if (known) return known;
    const sig = token.slice(token.lastIndexOf(".") + 1);
    const header = headerOf(token);
    if (header.alg !== SIGNING_ALG)
      throw unauthorized(`Token algorithm ${String(header.alg)} is not accepted`);
    const key = typeof header.kid === "string" ? this.keys.byKid(header.kid) : undefined;
    if (!key) throw unauthorized("Token signed by an unknown key");
    let payload: Claims;
    try {
      ({ payload } = await jwtVerify<Claims>(token, key.publicKey, {
        algorithms: [SIGNING_ALG],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_ISSUER,
        // a token without an expiry would be good forever
        requiredClaims: ["exp"],
        currentDate: new Date(now),
      }));
    } catch (e) {
      throw verifyError(e);
    }
    const principal = principalOf(payload);
    if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
    this.cache.set(sig, { token, principal, expMs: (payload.exp ?? 0) * 1000 });
    return principal;
  }
}

/** The protected header of a compact JWS; 401 when it is not one. */
export function headerOf(token: string): { alg?: unknown; kid?: unknown } {
  if (token.length > MAX_TOKEN_CHARS) throw unauthorized(`Token longer than ${MAX_TOKEN_CHARS} characters`);
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) throw unauthorized("Malformed token");
  try {
    return decodeProtectedHeader(token);
  } catch {
    throw unauthorized("Malformed token");
  }
}

/** The 401 of a failed verification. */
export function verifyError(e: unknown) {
  if (e instanceof errors.JWTExpired) return unauthorized("Token expired");
  if (e instanceof errors.JWSSignatureVerificationFailed)
    return unauthorized("Token signature does not verify");
  if (e instanceof errors.JWTClaimValidationFailed) {
    return unauthorized(
      e.reason === "missing" ? `Token lacks the ${e.claim} claim` : `Token claim ${e.claim} is not valid`,
    );
  }
  return unauthorized("Invalid token");
}

function principalOf(c: Claims): Principal {
  if (typeof c.sub !== "string" || !ROLES.includes(c.role) || !Array.isArray(c.ten)) {
    throw unauthorized("Token lacks citygraph claims");
  }
  return {
    id: c.sub,
    kind: c.kind === "api-key" || c.kind === "service" ? c.kind : "user",
    name: c.name,
    role: c.role,
    tier: c.tier && TIERS.includes(c.tier) ? c.tier : undefined,
    tenants: c.ten.filter((t): t is string => typeof t === "string"),
    session: c.sid,
  };
}
