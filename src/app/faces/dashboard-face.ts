import { faceRouter } from "./face-router";
import { registerDashboardRoutes } from "../../api/dashboard/dashboard-routes";
import type { Config } from "../../config/config";
import { TRAFFIC_SPARQL_PREFIXES } from "../../domain/vocabulary";
import type { Face } from "./face";

/**
 * The operations dashboard's files at `/`, `/dashboard` and `/assets/*` (web/, built into dist/web). The
 * page is open (outside the auth gate's protected paths): it holds no data, and asks the other faces
 * for it with the user's token. `authRequired` makes it show its login view first.
 */
export function dashboardFace(config: Config, authRequired: boolean): Face {
  const router = faceRouter();
  registerDashboardRoutes(router, {
    ...config.dashboard,
    authRequired,
    sparqlPrefixes: TRAFFIC_SPARQL_PREFIXES,
  });
  return { routers: [router] };
}
