import type { IncomingMessage } from "node:http";
import type { Credential } from "../../auth/auth-service";
import { checkPermission, type Action } from "../../auth/permissions";
import { AUTH_OFF_PRINCIPAL, mayUseTenant, type Principal } from "../../auth/principal";
import { AppError, ERROR_KINDS, toAppError } from "../../errors";
import { bearerOf, credentialOf } from "./credentials";

/** What socket faces need of identity; `undefined` authenticator = AUTH=off. */
export interface SocketAuthenticator {
  authenticate(cred: Credential): Promise<Principal>;
}

/**
 * The principal of a WebSocket upgrade (decisions.md: query `token=` or the `Authorization` header, or
 * `X-API-Key`), checked for `action` and the `NGSILD-Tenant` header or `tenant` query parameter. Throws
 * an AppError: map it with {@link closeCodeOf}.
 */
export async function authenticateUpgrade(
  auth: SocketAuthenticator | undefined,
  req: IncomingMessage,
  action: Action = "read",
): Promise<Principal> {
  if (!auth) return AUTH_OFF_PRINCIPAL;
  const query = new URL(req.url ?? "/", "http://x").searchParams;
  const p = await auth.authenticate(credentialOf(req.headers, query));
  const tenant = (req.headers["ngsild-tenant"] as string | undefined) ?? query.get("tenant") ?? "";
  checkTenant(p, tenant);
  checkPermission(p, action);
  return p;
}

/**
 * The principal of graphql-ws connection parameters: `authorization: "Bearer <token>"` (decisions.md),
 * or `apiKey` / `x-api-key`.
 */
export async function authenticateConnectionParams(
  auth: SocketAuthenticator | undefined,
  params: Record<string, unknown> | undefined,
): Promise<Principal> {
  if (!auth) return AUTH_OFF_PRINCIPAL;
  const authz = params?.authorization ?? params?.Authorization;
  const key = params?.apiKey ?? params?.["x-api-key"];
  const cred: Credential =
    typeof key === "string" ? { apiKey: key } : typeof authz === "string" ? { bearer: bearerOf(authz) } : {};
  return auth.authenticate(cred);
}

/** 403 unless `p` may use `tenant`. */
export function checkTenant(p: Principal, tenant: string): void {
  if (!mayUseTenant(p, tenant))
    throw new AppError("AccessDenied", `Tenant ${JSON.stringify(tenant)} is not open to this ${p.kind}`);
}

/** The WebSocket close code of an authentication failure (decisions.md "Errors"): 4401, 4403, else 1011. */
export function closeCodeOf(err: unknown): number {
  const e = toAppError(err);
  if (e.kind === "Unauthorized") return 4401;
  if (e.kind === "AccessDenied") return 4403;
  if (e.kind === "TooManyRequests") return 4429;
  return e.status < 500 ? 4400 : 1011;
}

/** Who holds a socket, and until when (the token's expiry; the socket is closed with 4401 then). */
export interface SocketSession {
  principal: Principal;
  /** Epoch ms when the credentials expire; undefined = never. */
  expiresAt?: number;
}

/**
 * The auth hook of the socket faces (interface spec §5 items 4-5, decisions.md "Identity, roles,
 * tokens"): checks a bearer token (or its absence) and resolves the session, or throws
 * AppError("Unauthorized") / AppError("AccessDenied"). The composition root sets it from src/auth.
 */
export interface SocketAuth {
  authenticate(token: string | undefined): Promise<SocketSession>;
  /** True if the principal may change data (GraphQL mutations). */
  mayWrite(principal: Principal): boolean;
}

/** Everyone may connect and write: the hook as it stands with `AUTH=off`. */
export const OPEN_SOCKET_AUTH: SocketAuth = {
  authenticate: async () => ({
    principal: { id: "anonymous", kind: "anonymous", role: "admin", tenants: [] },
  }),
  mayWrite: () => true,
};

/** The token of a WebSocket upgrade: query parameter `token`, else the `Authorization: Bearer` header. */
export function upgradeToken(req: IncomingMessage): string | undefined {
  const q = new URL(req.url ?? "/", "http://x").searchParams.get("token");
  if (q) return q;
  return bearerToken(req.headers.authorization);
}

/** The token of an `Authorization: Bearer <token>` value, or undefined. */
export function bearerToken(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return m ? m[1] : undefined;
}

/** The WebSocket close code of an auth failure: 4401 unauthorized, 4403 forbidden (decisions.md "Errors"). */
export function authCloseCode(e: AppError): number {
  return e.kind === "AccessDenied"
    ? 4000 + ERROR_KINDS.AccessDenied.status
    : 4000 + ERROR_KINDS.Unauthorized.status;
}
