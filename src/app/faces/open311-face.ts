import { faceRouter } from "./face-router";
import { registerOpen311Routes } from "../../api/open311/open311-routes";
import { renderOpen311Error } from "../../api/open311/open311-errors";
import type { ReportsApi } from "../../api/rest/reports-api";
import type { Face } from "./face";

/** The Open311 GeoReport v2 facade (`/open311/v2`) over the citizen reports. */
export function open311Face(reports: ReportsApi): Face {
  const o = faceRouter("/open311/v2");
  registerOpen311Routes(o, reports);
  return {
    mount: { name: "open311", prefixes: ["/open311/"], renderError: renderOpen311Error },
    routers: [o],
    permissions: [{ method: "POST", path: /^\/open311\/v2\/requests\.json$/, access: "report" }],
  };
}
