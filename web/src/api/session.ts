import { ApiError, errorOf } from "./http";

/** The answer of `POST /v1/auth/login` and `/v1/auth/refresh` (docs/auth.md). */
interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  token_type?: string;
}

/** Roles of docs/auth.md. */
export type Role = "viewer" | "operator" | "admin";

/**
 * The logged-in user: tokens live in this object only (never localStorage or cookies), so they go
 * with the tab. With authentication off there is no token and every role's view is open.
 */
class Session {
  private access?: string;
  private refreshToken?: string;
  private user?: { name: string; role: Role };
  private authRequired = true;
  /** Ends the calls still in flight when the session ends (their late 401s would reach the next user). */
  private calls = new AbortController();
  private readonly listeners: ((notice: string) => void)[] = [];

  /** Whether the service asks for tokens (from the page's configuration). */
  configure(authRequired: boolean): void {
    this.authRequired = authRequired;
  }

  token(): string | undefined {
    return this.access;
  }

  /** Aborted when this session ends: every call made with its token listens to it. */
  signal(): AbortSignal {
    return this.calls.signal;
  }

  /** The user shown in the header; "authentication off" when the service asks for none. */
  userLabel(): string {
    if (!this.authRequired) return "authentication off";
    return this.user ? `${this.user.name} (${this.user.role})` : "not logged in";
  }

  loggedIn(): boolean {
    return !this.authRequired || this.access !== undefined;
  }

  /** Operators and admins review reports; everyone may when authentication is off. */
  canReview(): boolean {
    if (!this.authRequired) return true;
    return this.user?.role === "operator" || this.user?.role === "admin";
  }

  canRefresh(): boolean {
    return this.refreshToken !== undefined;
  }

  /** `POST /v1/auth/login`; a refusal throws an ApiError in words ("wrong user name or password"). */
  async login(username: string, password: string): Promise<void> {
    const res = await fetch("/v1/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ username, password }),
    }).catch(() => undefined);
    if (!res) throw new ApiError("The service cannot be reached: check the network connection.", 0);
    if (res.status === 401) throw new ApiError("Wrong user name or password.", 401);
    if (!res.ok) throw await errorOf(res);
    this.take((await res.json()) as TokenAnswer, username);
  }

  /** Rotates the tokens; false (and logged out) when the refresh token is refused. */
  async refresh(): Promise<boolean> {
    const rt = this.refreshToken;
    if (!rt) return false;
    this.refreshToken = undefined;
    const res = await fetch("/v1/auth/refresh", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ refresh_token: rt }),
    }).catch(() => undefined);
    if (!res?.ok) return false;
    this.take((await res.json()) as TokenAnswer, this.user?.name ?? "");
    return true;
  }

  logout(): void {
    const rt = this.refreshToken;
    if (rt) {
      void fetch("/v1/auth/logout", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${this.access ?? ""}` },
        body: JSON.stringify({ refresh_token: rt }),
      }).catch(() => undefined);
    }
    this.expired("You are logged out.");
  }

  /** Forgets the tokens and tells the page (it shows the login view with `notice`). */
  expired(notice = "Your session ended: please log in again."): void {
    if (!this.authRequired) return;
    this.access = this.refreshToken = this.user = undefined;
    this.calls.abort();
    this.calls = new AbortController();
    for (const l of this.listeners) l(notice);
  }

  onExpired(listener: (notice: string) => void): void {
    this.listeners.push(listener);
  }

  private take(t: TokenAnswer, name: string): void {
    this.access = t.access_token;
    this.refreshToken = t.refresh_token;
    const claims = decodeClaims(t.access_token);
    const role = (claims.role ?? (Array.isArray(claims.roles) ? claims.roles[0] : undefined)) as Role;
    this.user = { name: (claims.name as string) ?? (claims.preferred_username as string) ?? name, role };
  }
}

/** The claims of a JWT, read (not verified: the service verifies) to show the role. */
function decodeClaims(jwt: string): Record<string, unknown> {
  try {
    const part = jwt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(part)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The page's one session. */
export const session = new Session();
