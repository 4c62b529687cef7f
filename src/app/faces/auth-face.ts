import { faceRouter } from "./face-router";
import { registerAdminRoutes } from "../../api/auth/admin-routes";
import { registerJwksRoutes } from "../../api/auth/jwks-routes";
import { registerTokenRoutes } from "../../api/auth/token-routes";
import { renderRestError } from "../../api/rest/rest-error";
import type { AuthParts } from "../../auth/open-auth";
import type { Metrics } from "../../observability/metrics";
import type { Face } from "./face";

/**
 * Identity at `/v1/auth`, `/api/v1/auth` (login, refresh, logout), `/v1/admin` (users, API keys, signing
 * keys) and `/.well-known/jwks.json`, errors in the REST format. Not mounted with AUTH=off.
 */
export function authFace(auth: AuthParts, metrics: Metrics): Face {
  const router = faceRouter();
  const onLogin = (ok: boolean) => metrics.login(ok);
  registerTokenRoutes(router, "/v1", auth.service, onLogin);
  registerTokenRoutes(router, "/api/v1", auth.service, onLogin);
  registerAdminRoutes(router, auth.service, auth.keys, auth.audit);
  registerJwksRoutes(router, auth.keys);
  return {
    mount: {
      name: "auth",
      prefixes: ["/v1/auth/", "/api/v1/auth/", "/v1/admin/", "/.well-known/jwks.json"],
      renderError: renderRestError,
    },
    routers: [router],
  };
}
