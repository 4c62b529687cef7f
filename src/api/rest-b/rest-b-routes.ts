import { alertRoutes } from "../rest/alert-routes";
import { withOpenApiRoute } from "../rest/openapi";
import type { RouteSpec } from "../rest/schema-route";
import { accidentRoutes } from "./accident-routes";
import { analyticsRoutes } from "./analytics-routes";
import { cameraRoutes } from "./camera-routes";
import { citizenReportRoutesB } from "./citizen-report-routes";
import { REST_B_PREFIX, type RestBDeps } from "./deps";
import { environmentRoutes } from "./environment-routes";
import { trafficRoutes } from "./traffic-routes";

/** The document's info: what variant B is. */
const INFO = {
  title: "citygraph traffic API, variant B",
  version: "1.0.0",
  description:
    "Ho Chi Minh City traffic, citizen reports and alerts in variant B's names. Lists come in the page form (page, limit; pagination{page, limit, total, pages, next, prev} and a Link header) or the cursor form (cursor= to start, then next_cursor; {data[], pagination{next_cursor, has_more}}); cursors are opaque and signed. Errors: {error:{code,message,details}}. Unknown query parameters are ignored.",
};

/** Every operation of variant B this face serves, and its OpenAPI document at /openapi.json. */
export function restBRoutes(b: RestBDeps): RouteSpec[] {
  const specs = [
    ...cameraRoutes(b),
    ...accidentRoutes(b),
    ...trafficRoutes(b),
    ...environmentRoutes(b),
    ...analyticsRoutes(b),
    ...citizenReportRoutesB(b.reports),
    ...alertRoutes(b.reports),
  ];
  return withOpenApiRoute(specs, INFO, REST_B_PREFIX);
}
