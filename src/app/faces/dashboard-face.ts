import Router from "@koa/router";
import { registerDashboardRoutes } from "../../api/dashboard/dashboard-routes";
import type { Config } from "../../config/config";
import type { Face } from "./face";

/**
 * The operations dashboard's files at `/`, `/dashboard` and `/assets/*` (web/, built into dist/web). The
 * page is public: it holds no data, and asks the other faces for it with the user's token.
 */
export function dashboardFace(config: Config): Face {
  const router = new Router();
  // no face asks for a token yet: the page opens without its login view
  registerDashboardRoutes(router, { ...config.dashboard, authRequired: false });
  return { routers: [router] };
}
