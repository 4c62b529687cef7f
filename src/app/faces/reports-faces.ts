import Router from "@koa/router";
import { registerOpen311Routes } from "../../api/open311/open311-routes";
import { renderOpen311Error } from "../../api/open311/open311-errors";
import { registerCitizenReportRoutesA } from "../../api/rest-a/citizen-report-routes";
import { registerMediaRoutes } from "../../api/rest-a/media-routes";
import { registerReviewRoutes } from "../../api/rest-a/review-routes";
import { registerCitizenReportRoutesB } from "../../api/rest-b/citizen-report-routes";
import { registerAlertRoutes } from "../../api/rest/alert-routes";
import { renderRestError } from "../../api/rest/rest-error";
import type { Config } from "../../config/config";
import type { ReportsParts } from "../reports";
import type { Face } from "./face";

/**
 * The citizen report, review and alert routes of REST A (`/v1`) and B (`/api/v1`), and the Open311
 * GeoReport v2 facade (`/open311/v2`), over one reports domain.
 */
export function reportsFaces(config: Config, reports: ReportsParts): Face[] {
  const a = new Router({ prefix: "/v1" });
  registerCitizenReportRoutesA(a, reports);
  registerReviewRoutes(a, reports, config.server.maxBodyBytes);
  registerAlertRoutes(a, reports, config.server.maxBodyBytes);
  registerMediaRoutes(a, reports);
  const b = new Router({ prefix: "/api/v1" });
  registerCitizenReportRoutesB(b, reports);
  registerAlertRoutes(b, reports, config.server.maxBodyBytes);
  const o = new Router({ prefix: "/open311/v2" });
  registerOpen311Routes(o, reports);
  return [
    {
      mount: { name: "rest-a", prefixes: ["/v1/"], renderError: renderRestError },
      routers: [a],
      // decisions.md: the review of citizen reports is an operator's
      permissions: [{ method: "*", path: /^\/v1\/reviews(\/[^/]+)?$/, access: "write" }],
    },
    { mount: { name: "rest-b", prefixes: ["/api/v1/"], renderError: renderRestError }, routers: [b] },
    {
      mount: { name: "open311", prefixes: ["/open311/"], renderError: renderOpen311Error },
      routers: [o],
      permissions: [{ method: "POST", path: /^\/open311\/v2\/requests\.json$/, access: "report" }],
    },
  ];
}
