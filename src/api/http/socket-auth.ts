import type { IncomingMessage } from "node:http";
import type { Credential } from "../../auth/auth-service";
import { checkPermission, type Action } from "../../auth/permissions";
import { AUTH_OFF_PRINCIPAL, type Principal } from "../../auth/principal";
import { ERROR_KINDS, toAppError } from "../../errors";
import { bearerOf, credentialOf } from "./credentials";
import type { FaceName } from "./request-context";
import { admitTenant } from "./tenant";

/** What socket faces need of identity; `undefined` authenticator = AUTH=off. */
export interface SocketAuthenticator {
  authenticate(cred: Credential): Promise<Principal>;
}

/** The tenant a WebSocket upgrade names: its `NGSILD-Tenant` header or `tenant` query parameter ("" for none). */
export function upgradeTenant(req: IncomingMessage | undefined): string {
  if (!req) return "";
  const header = req.headers["ngsild-tenant"];
  if (typeof header === "string") return header;
  return new URL(req.url ?? "/", "http://x").searchParams.get("tenant") ?? "";
}

/**
 * The principal of a WebSocket upgrade to `face` (docs/rest.md: query `token=` or the `Authorization`
 * header, or `X-API-Key`), held to the tenant rule of every face (tenant.ts admitTenant) and checked for
 * `action`. Throws an AppError: map it with {@link closeCodeOf}.
 */
export async function authenticateUpgrade(
  auth: SocketAuthenticator | undefined,
  req: IncomingMessage,
  face: FaceName,
  action: Action = "read",
): Promise<Principal> {
  if (!auth) {
    admitTenant(undefined, face, upgradeTenant(req));
    return AUTH_OFF_PRINCIPAL;
  }
  const query = new URL(req.url ?? "/", "http://x").searchParams;
  const p = await auth.authenticate(credentialOf(req.headers, query));
  admitTenant(p, face, upgradeTenant(req));
  checkPermission(p, action);
  return p;
}

/**
 * The principal of graphql-ws connection parameters: `authorization: "Bearer <token>"` (docs/rest.md),
 * or `apiKey` / `x-api-key`; held to the GraphQL face's tenant rule (tenant.ts admitTenant) with the
 * tenant its upgrade request `req` names.
 */
export async function authenticateConnectionParams(
  auth: SocketAuthenticator | undefined,
  params: Record<string, unknown> | undefined,
  req?: IncomingMessage,
): Promise<Principal> {
  if (!auth) {
    admitTenant(undefined, "graphql", upgradeTenant(req));
    return AUTH_OFF_PRINCIPAL;
  }
  const authz = params?.authorization ?? params?.Authorization;
  const key = params?.apiKey ?? params?.["x-api-key"];
  const cred: Credential =
    typeof key === "string" ? { apiKey: key } : typeof authz === "string" ? { bearer: bearerOf(authz) } : {};
  const p = await auth.authenticate(cred);
  admitTenant(p, "graphql", upgradeTenant(req));
  return p;
}

/** The close code of a socket that `err` ends: its kind's column of the error table. */
export function closeCodeOf(err: unknown): number {
  return ERROR_KINDS[toAppError(err).kind].close;
}
