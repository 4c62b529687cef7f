import type { Config } from "../config/config";
import type { Logger } from "../log/logger";
import type { GraphStore } from "../store/graph-store";
import { AccessTokens } from "./access-tokens";
import { auditLog, type Audit } from "./audit";
import { AuthService } from "./auth-service";
import { bootstrapAdmin } from "./bootstrap-admin";
import { CredentialRepository } from "./credential-repository";
import { ExternalIssuer } from "./external-issuer";
import type { ScryptCost } from "./password-hash";
import type { Principal } from "./principal";
import { RateLimits } from "./rate-limits";
import { RefreshFamilies } from "./refresh-families";
import { SigningKeys } from "./signing-keys";
import { UserDirectory } from "./user-directory";

/** Identity and rate limits, as the faces use them. */
export interface AuthParts {
  service: AuthService;
  keys: SigningKeys;
  rateLimits: RateLimits;
  audit: Audit;
  /** A token for the service's own clients (role operator, not rate limited), renewed before it expires. */
  serviceToken(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Opens identity (AUTH=on): the signing keys in DATA_DIR, users, API keys and refresh families from the
 * store's internal graphs, the `admin` user on first start, and the rate-limit counters.
 */
export async function openAuth(
  config: Config,
  store: GraphStore,
  log: Logger,
  cost?: ScryptCost,
): Promise<AuthParts> {
  const a = config.auth;
  const keys = SigningKeys.open(config.store.dataDir, a.accessTokenTtlS * 1000, a.signingKeyMaxAgeS * 1000);
  const repo = new CredentialRepository(store);
  const stored = await repo.loadAll();
  const directory = new UserDirectory(repo, cost);
  directory.load(stored.user, stored["api-key"]);
  const families = new RefreshFamilies(repo, a.refreshTokenTtlS * 1000);
  await families.load(stored.refresh);
  await bootstrapAdmin(directory, config.store.dataDir, a.adminPassword, log);
  const tokens = new AccessTokens(keys, a.accessTokenTtlS);
  const external =
    a.externalIssuer && a.externalJwksUrl
      ? new ExternalIssuer({
          issuer: a.externalIssuer,
          jwksUrl: a.externalJwksUrl,
          audience: a.externalAudience,
        })
      : undefined;
  const audit = auditLog(log);
  const rateLimits = new RateLimits({
    tierLimits: a.tierLimits,
    redisUrl: config.redisUrl,
    prefix: a.rateLimitPrefix,
    onError: (e) => log.warn("rate-limit store error", { error: e.message }),
  });
  const held = new Map<string, { token: string; until: number }>();
  return {
    service: new AuthService(directory, families, tokens, audit, external),
    keys,
    rateLimits,
    audit,
    serviceToken: async (name) => {
      const h = held.get(name);
      if (h && h.until > Date.now()) return h.token;
      const p: Principal = { id: `service:${name}`, kind: "service", name, role: "operator", tenants: [] };
      const token = await tokens.issue(p);
      held.set(name, { token, until: Date.now() + (a.accessTokenTtlS * 1000) / 2 });
      return token;
    },
    close: () => rateLimits.close(),
  };
}
