import type { Middleware } from "koa";
import { authGate } from "../api/http/auth-gate";
import { rateLimitGate } from "../api/http/rate-limit-gate";
import { DEFAULT_PERMISSIONS } from "../api/http/route-permissions";
import type { AuthParts } from "../auth/open-auth";
import type { Face } from "./faces/face";

/**
 * The gates of the request pipeline: the auth gate (the faces' permission lines first, then the default
 * table) and the rate limit. With `auth` undefined (AUTH=off) every request is the anonymous admin and
 * nothing is counted.
 */
export function authGates(auth: AuthParts | undefined, faces: readonly Face[]): Middleware[] {
  const table = [...faces.flatMap((f) => f.permissions ?? []), ...DEFAULT_PERMISSIONS];
  if (!auth) return [authGate(undefined, table)];
  const gateAuth = {
    authenticate: auth.service.authenticate.bind(auth.service),
    known: auth.service.known.bind(auth.service),
    audit: auth.audit,
  };
  return [authGate(gateAuth, table), rateLimitGate(auth.rateLimits)];
}
