import { AppError } from "../errors";
import { AccessTokens } from "./access-tokens";
import { checkApiKeyShape } from "./api-keys";
import type { Audit } from "./audit";
import type { ApiKeyRecord, UserRecord } from "./credential-records";
import type { ExternalIssuer } from "./external-issuer";
import { LoginThrottle } from "./login-throttle";
import { verifyPassword } from "./password-hash";
import type { Principal } from "./principal";
import type { RefreshFamilies } from "./refresh-families";
import type { UserDirectory } from "./user-directory";
import { unauthorized } from "./token-errors";

/** A credential as a client sends it: `Authorization: Bearer <token>` or `X-API-Key: <key>`. */
export interface Credential {
  bearer?: string;
  apiKey?: string;
}

/** What login and refresh answer (docs/auth.md "Logging in"). */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: "Bearer";
}

/** A hash of a password nobody has: an unknown username costs as much as a wrong password. */
const DUMMY_HASH = "scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

export const principalOfUser = (u: UserRecord, session?: string): Principal => ({
  id: u.id,
  kind: "user",
  name: u.username,
  role: u.role,
  tier: u.tier,
  tenants: u.tenants,
  session,
});

export const principalOfKey = (k: ApiKeyRecord): Principal => ({
  id: k.id,
  kind: "api-key",
  name: k.name,
  role: k.role,
  tier: k.tier,
  tenants: k.tenants,
});

/**
 * Identity (docs/auth.md "Roles and permissions"): login, refresh, logout, and {@link authenticate},
 * which every face calls with what the client sent (the HTTP gate, WebSocket upgrades, graphql-ws
 * connection parameters).
 */
export class AuthService {
  private readonly throttle = new LoginThrottle();

  constructor(
    readonly directory: UserDirectory,
    readonly families: RefreshFamilies,
    readonly tokens: AccessTokens,
    private readonly audit: Audit,
    private readonly external?: ExternalIssuer,
  ) {}

  /**
   * The principal of a bearer token verified before, at once, without a promise (the per-request path);
   * undefined when {@link authenticate} has to be asked. 401 for a deleted user or a revoked session.
   */
  known(cred: Credential): Principal | undefined {
    // only tokens this service verified are cached: an API key or an external issuer's token misses
    if (cred.apiKey !== undefined || !cred.bearer) return undefined;
    const p = this.tokens.cached(cred.bearer);
    return p && this.stillValid(p);
  }

  /** The principal of a credential; 401 when it is missing, malformed, expired, revoked or unknown. */
  async authenticate(cred: Credential): Promise<Principal> {
    if (cred.apiKey !== undefined) {
      checkApiKeyShape(cred.apiKey);
      const k = this.directory.apiKeyOf(cred.apiKey);
      if (!k) throw unauthorized("Unknown or revoked API key");
      return principalOfKey(k);
    }
    const token = cred.bearer;
    if (token === undefined || token === "")
      throw unauthorized("A bearer token or an API key is required", false);
    if (this.external && !this.tokens.isOurs(token) && this.external.claims(token))
      return this.external.verify(token);
    return this.stillValid(await this.tokens.verify(token));
  }

  /** `p` of a valid token, unless its user is deleted or its session revoked since (401). */
  private stillValid(p: Principal): Principal {
    if (p.kind === "user" && !this.directory.user(p.id)) throw unauthorized("Token of a deleted user");
    if (p.session !== undefined && this.families.isRevoked(p.session)) throw unauthorized("Token revoked");
    return p;
  }

  /** Checks a username and password; the same 401 for an unknown user and a wrong password. */
  async login(username: string, password: string, address: string, requestId?: string): Promise<TokenPair> {
    await this.throttle.check(username, address);
    const user = this.directory.userByName(username);
    const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) {
      await this.throttle.failed(username, address);
      this.audit("login-failed", { username, address, requestId });
      throw new AppError("Unauthorized", "Wrong username or password");
    }
    await this.throttle.succeeded(username, address);
    const { family, token } = await this.families.start(user.id);
    this.audit("login", { principal: user.id, username: user.username, session: family.id, requestId });
    return this.pair(principalOfUser(user, family.id), token);
  }

  /** Exchanges a refresh token for a new pair; a reused token revokes its family (401). */
  async refresh(refreshToken: string, requestId?: string): Promise<TokenPair> {
    let next;
    try {
      next = await this.families.rotate(refreshToken);
    } catch (e) {
      const reused = (e as { reusedFamily?: { id: string; userId: string } }).reusedFamily;
      if (reused) this.audit("refresh-reuse", { principal: reused.userId, session: reused.id, requestId });
      throw e;
    }
    const user = this.directory.user(next.family.userId);
    if (!user) throw unauthorized("Token of a deleted user");
    this.audit("refresh", { principal: user.id, session: next.family.id, requestId });
    return this.pair(principalOfUser(user, next.family.id), next.token);
  }

  /** Revokes a login: by its refresh token, or by the session of the caller's access token. */
  async logout(
    refreshToken: string | undefined,
    caller: Principal | undefined,
    requestId?: string,
  ): Promise<void> {
    let f;
    if (refreshToken !== undefined) f = await this.families.revokeByToken(refreshToken);
    else if (caller?.session) f = await this.families.revoke(caller.session);
    else
      throw new AppError("InvalidRequest", "Field refresh_token is required", { parameter: "refresh_token" });
    this.audit("logout", { principal: f?.userId, session: f?.id, requestId });
  }

  /** Deletes a user and revokes its logins. */
  async deleteUser(id: string, actor: Principal, requestId?: string): Promise<void> {
    const u = await this.directory.deleteUser(id);
    await this.families.revokeUser(id);
    this.audit("user-deleted", { principal: actor.id, user: u.id, username: u.username, requestId });
  }

  private async pair(p: Principal, refreshToken: string): Promise<TokenPair> {
    return {
      access_token: await this.tokens.issue(p),
      refresh_token: refreshToken,
      expires_in: this.tokens.ttlS,
      token_type: "Bearer",
    };
  }
}
