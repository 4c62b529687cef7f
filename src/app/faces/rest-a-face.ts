import Router from "@koa/router";
import { renderRestError } from "../../api/rest/rest-error";
import { registerSpecRoutes, type RouteGate } from "../../api/rest/schema-route";
import { REST_A_PREFIX, restARoutes } from "../../api/rest-a/rest-a-routes";
import type { Config } from "../../config/config";
import type { CameraImageSource } from "../../domain/images";
import type { TrafficDomain } from "../../domain/traffic";
import type { Face } from "./face";

/**
 * REST variant A at `/v1` (traffic-service-interface.md §4), errors as `{error:{...}}`. `gate` (the
 * auth gate) runs in front of each route with the access the route declares.
 */
export function restAFace(
  config: Config,
  traffic: TrafficDomain,
  images: CameraImageSource,
  gate?: RouteGate,
): Face {
  const router = new Router({ prefix: REST_A_PREFIX });
  registerSpecRoutes(router, restARoutes(traffic, images), {
    gate,
    maxBodyBytes: config.server.maxBodyBytes,
  });
  return {
    mount: { name: "rest-a", prefixes: [`${REST_A_PREFIX}/`], renderError: renderRestError },
    routers: [router],
  };
}
