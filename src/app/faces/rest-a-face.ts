import { faceRouter } from "./face-router";
import { renderRestError } from "../../api/rest/rest-error";
import { registerSpecRoutes, type RouteGate } from "../../api/rest/schema-route";
import { REST_A_PREFIX, restARoutes } from "../../api/rest-a/rest-a-routes";
import type { ReportsApi } from "../../api/rest/reports-api";
import type { Config } from "../../config/config";
import type { CameraImageSource } from "../../domain/images";
import type { TrafficDomain } from "../../domain/traffic";
import type { Face } from "./face";

/**
 * REST variant A at `/v1` (docs/rest.md; citizen reports, reviews and alerts too), errors as `{error:{...}}`. `gate` (the
 * auth gate) runs in front of each route with the access the route declares.
 */
export function restAFace(
  config: Config,
  traffic: TrafficDomain,
  images: CameraImageSource,
  reports: ReportsApi,
  gate?: RouteGate,
): Face {
  const router = faceRouter(REST_A_PREFIX);
  registerSpecRoutes(router, restARoutes(traffic, images, reports), {
    gate,
    maxBodyBytes: config.server.maxBodyBytes,
  });
  return {
    mount: { name: "rest-a", prefixes: [`${REST_A_PREFIX}/`], renderError: renderRestError },
    routers: [router],
    // docs/rest.md: the review of citizen reports is an operator's
    permissions: [{ method: "*", path: /^\/v1\/reviews(\/[^/]+)?$/, access: "write" }],
  };
}
