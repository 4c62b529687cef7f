import { DAY, durationVar, intVar, switchVar, urlVar } from "./env-readers";
/** Identity, tokens and rate limits (docs/auth.md, docs/configuration.md "Identity and rate limits"). */
export interface AuthConfig {
  /** Env `AUTH` (on/off), default on. Off: every request acts as an anonymous admin (conformance runs). */
  enabled: boolean;
  /** Password of user `admin` at first start. Env `ADMIN_PASSWORD`; unset = a random one in DATA_DIR. */
  adminPassword?: string;
  /** Lifetime of access tokens, seconds. Env `ACCESS_TOKEN_TTL` (duration), default 1h. */
  accessTokenTtlS: number;
  /** Lifetime of refresh tokens, seconds. Env `REFRESH_TOKEN_TTL` (duration), default 30d. */
  refreshTokenTtlS: number;
  /** The signing key is replaced once it is this old (the old one is kept until its tokens expire). Env `SIGNING_KEY_MAX_AGE`, default 90d. */
  signingKeyMaxAgeS: number;
  /** Requests per hour per tier; 0 = unlimited. Env `RATE_LIMIT_FREE|BASIC|PREMIUM|ENTERPRISE`. */
  tierLimits: Record<"free" | "basic" | "premium" | "enterprise", number>;
  /** Redis key prefix of the rate-limit counters. Env `RATE_LIMIT_PREFIX`, default citygraph-rl. */
  rateLimitPrefix: string;
  /** An external OIDC issuer whose tokens are accepted too (`iss`). Env `JWT_ISSUER`. */
  externalIssuer?: string;
  /** The JWKS of that issuer. Env `JWKS_URL`. */
  externalJwksUrl?: string;
  /** Expected `aud` of external tokens. Env `JWT_AUDIENCE`; unset = not checked. */
  externalAudience?: string;
}

/** Reads the auth settings from `env`. */
export function authConfig(env: NodeJS.ProcessEnv): AuthConfig {
  const limit = (name: string, def: number) => intVar(env, name, def, 0, 1_000_000_000);
  const prefix = env.RATE_LIMIT_PREFIX?.trim() || "citygraph-rl";
  return {
    enabled: switchVar(env, "AUTH", true),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    accessTokenTtlS: durationVar(env, "ACCESS_TOKEN_TTL", 3_600_000, 10_000, DAY) / 1000,
    refreshTokenTtlS: durationVar(env, "REFRESH_TOKEN_TTL", 30 * DAY, 60_000, 365 * DAY) / 1000,
    signingKeyMaxAgeS: durationVar(env, "SIGNING_KEY_MAX_AGE", 90 * DAY, 3_600_000, 3650 * DAY) / 1000,
    tierLimits: {
      free: limit("RATE_LIMIT_FREE", 100),
      basic: limit("RATE_LIMIT_BASIC", 1000),
      premium: limit("RATE_LIMIT_PREMIUM", 10_000),
      enterprise: limit("RATE_LIMIT_ENTERPRISE", 0),
    },
    rateLimitPrefix: prefix,
    externalIssuer: env.JWT_ISSUER?.trim() || undefined,
    externalJwksUrl: urlVar(env, "JWKS_URL", ["http:", "https:"]),
    externalAudience: env.JWT_AUDIENCE?.trim() || undefined,
  };
}
