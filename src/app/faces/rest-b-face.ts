import { faceRouter } from "./face-router";
import { loadCursorKey } from "../../api/rest/cursor-key";
import { CursorCodec } from "../../api/rest/cursor-codec";
import { renderRestError } from "../../api/rest/rest-error";
import { registerSpecRoutes, type RouteGate } from "../../api/rest/schema-route";
import { REST_B_PREFIX } from "../../api/rest-b/deps";
import { restBRoutes } from "../../api/rest-b/rest-b-routes";
import type { ReportsApi } from "../../api/rest/reports-api";
import type { Config } from "../../config/config";
import type { CameraImageSource } from "../../domain/images";
import type { EntitySource, TrafficDomain } from "../../domain/traffic";
import { FlowIntervals } from "../../domain/traffic/flow/flow-intervals";
import { PeriodStats } from "../../domain/traffic/flow/period-stats";
import type { NgsiLdCore } from "../ngsi-ld";
import type { Face } from "./face";

/**
 * REST variant B at `/api/v1` (docs/rest.md, fields marked (B)), errors as
 * `{error:{...}}`, on the same traffic domain and image source as variant A. Cursors are signed with
 * the key kept in DATA_DIR.
 */
/** What REST B serves from. */
export interface RestBFaceDeps {
  config: Config;
  traffic: TrafficDomain;
  images: CameraImageSource;
  core: NgsiLdCore;
  reports: ReportsApi;
  /** The routes' declared access, checked per request (none: every route open). */
  gate?: RouteGate;
}

export function restBFace({ config, traffic, images, core, reports, gate }: RestBFaceDeps): Face {
  const entities: EntitySource = {
    idsOfType: () => [],
    read: (tenant, ids, ctx) => core.views.read(tenant, ids, ctx),
  };
  const routes = restBRoutes({
    d: traffic,
    images,
    codec: new CursorCodec(loadCursorKey(config.store.dataDir)),
    flows: new FlowIntervals(traffic.projection, traffic.history),
    stats: new PeriodStats(traffic.projection, traffic.history, traffic.rollup),
    near: (centre, metres) => traffic.near(centre, metres),
    entities,
    now: Date.now,
    reports,
  });
  const router = faceRouter(REST_B_PREFIX);
  registerSpecRoutes(router, routes, { gate, maxBodyBytes: config.server.maxBodyBytes });
  return {
    mount: { name: "rest-b", prefixes: [`${REST_B_PREFIX}/`], renderError: renderRestError },
    routers: [router],
  };
}
