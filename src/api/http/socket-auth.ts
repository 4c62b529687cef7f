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

/** The close code of a socket that `err` ends: its kind's column of the error table. */
export function closeCodeOf(err: unknown): number {
  return ERROR_KINDS[toAppError(err).kind].close;
}
