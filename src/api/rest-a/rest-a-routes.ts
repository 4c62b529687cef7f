import type { CameraImageSource } from "../../domain/images";
import type { TrafficDomain } from "../../domain/traffic";
import { alertRoutes } from "../rest/alert-routes";
import { withOpenApiRoute } from "../rest/openapi";
import type { ReportsApi } from "../rest/reports-api";
import type { RouteSpec } from "../rest/schema-route";
import { accidentRoutes } from "./accident-routes";
import { analyticsRoutes } from "./analytics-routes";
import { cameraRoutes } from "./camera-routes";
import { citizenReportRoutesA } from "./citizen-report-routes";
import { environmentRoutes } from "./environment-routes";
import { mediaRoutes } from "./media-routes";
import { reviewRoutes } from "./review-routes";
import { trafficRoutes } from "./traffic-routes";

/** Where variant A is served (docs/rest.md). */
export const REST_A_PREFIX = "/v1";

/** The document's info: what variant A is. */
const INFO = {
  title: "citygraph traffic API, variant A",
  version: "1.0.0",
  description:
    "Ho Chi Minh City traffic: cameras, accidents, traffic state and forecast, weather, air quality, analytics, citizen reports and their review, alerts. Offset pagination (limit, offset; total). Errors: {error:{code,message,details}}. Unknown query parameters are ignored.",
};

/** Every operation of variant A this face serves, and its OpenAPI document at /openapi.json. */
export function restARoutes(d: TrafficDomain, images: CameraImageSource, reports: ReportsApi): RouteSpec[] {
  const specs = [
    ...cameraRoutes(d, images),
    ...accidentRoutes(d),
    ...trafficRoutes(d),
    ...environmentRoutes(d),
    ...analyticsRoutes(d),
    ...citizenReportRoutesA(reports),
    ...reviewRoutes(reports),
    ...alertRoutes(reports),
    ...mediaRoutes(reports),
  ];
  return withOpenApiRoute(specs, INFO, REST_A_PREFIX);
}
