import { buildOpenApi } from "../rest/openapi";
import type { RouteSpec } from "../rest/schema-route";
import { accidentRoutes } from "./accident-routes";
import { analyticsRoutes } from "./analytics-routes";
import { cameraRoutes } from "./camera-routes";
import { REST_B_PREFIX, type RestBDeps } from "./deps";
import { environmentRoutes } from "./environment-routes";
import { trafficRoutes } from "./traffic-routes";

/** Every operation of variant B this face serves, and its OpenAPI document at /openapi.json. */
export function restBRoutes(b: RestBDeps): RouteSpec[] {
  const specs = [
    ...cameraRoutes(b),
    ...accidentRoutes(b),
    ...trafficRoutes(b),
    ...environmentRoutes(b),
    ...analyticsRoutes(b),
  ];
  let doc: Record<string, unknown> | undefined;
  specs.push({
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApi",
    summary: "This OpenAPI 3.1 document",
    tag: "meta",
    access: "public",
    response: { type: "object" },
    handler: () => (doc ??= restBOpenApi(specs)),
  });
  return specs;
}

/** The OpenAPI 3.1 document of variant B. */
export function restBOpenApi(specs: readonly RouteSpec[]): Record<string, unknown> {
  return buildOpenApi(
    {
      title: "citygraph traffic API, variant B",
      version: "1.0.0",
      description:
        "Ho Chi Minh City traffic in variant B's names. Lists come in the page form (page, limit; pagination{page, limit, total, pages, next, prev} and a Link header) or the cursor form (cursor= to start, then next_cursor; {data[], pagination{next_cursor, has_more}}); cursors are opaque and signed. Errors: {error:{code,message,details}}. Unknown query parameters are ignored.",
    },
    REST_B_PREFIX,
    specs,
  );
}
