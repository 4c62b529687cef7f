import type { Middleware } from "koa";
import { authGate } from "../api/http/auth-gate";
import { rateLimitGate } from "../api/http/rate-limit-gate";
import { DEFAULT_PERMISSIONS } from "../api/http/route-permissions";
import type { AuthParts } from "../auth/open-auth";
import { allows, checkPermission } from "../auth/permissions";
import { OPEN_SOCKET_AUTH, type SocketAuth } from "../api/http/socket-auth";
import type { Face } from "./faces/face";

/**
 * The gates of the request pipeline: the auth gate (the faces' permission lines first, then the default
 * table) and the rate limit. With `auth` undefined (AUTH=off) every request is the anonymous admin and
 * nothing is counted.
 */
export function authGates(auth: AuthParts | undefined, faces: readonly Face[]): Middleware[] {
  const table = [...faces.flatMap((f) => f.permissions ?? []), ...DEFAULT_PERMISSIONS];
  if (!auth) return [authGate(undefined, table)];
  const gateAuth = { authenticate: auth.service.authenticate.bind(auth.service), audit: auth.audit };
  return [authGate(gateAuth, table), rateLimitGate(auth.rateLimits)];
}

/**
 * The socket faces' auth hook (/ws, GraphQL over WebSocket): the token checked by the auth service and
 * the `read` permission; everyone when `auth` is undefined (AUTH=off).
 */
export function socketAuthOf(auth: AuthParts | undefined): SocketAuth {
  if (!auth) return OPEN_SOCKET_AUTH;
  return {
    authenticate: async (token) => {
      const principal = await auth.service.authenticate(token ? { bearer: token } : {});
      checkPermission(principal, "read");
      return { principal };
    },
    mayWrite: (p) => allows(p, "write"),
  };
}
