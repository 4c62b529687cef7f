import { createHash, timingSafeEqual } from "node:crypto";
import type Router from "@koa/router";
import { checkPermission } from "../../auth/permissions";
import { checkAllTenants } from "../../auth/tenant-scope";
import { AppError } from "../../errors";
import { bearerOf } from "./credentials";
import { requestOf } from "./request-context";

/** What `/metrics` serves: the exposition text and its content type. */
export interface MetricsText {
  render(): Promise<string>;
  readonly contentType: string;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * GET /metrics (docs/operations.md "Metrics"): the Prometheus text format, for an admin's credential or
 * `Authorization: Bearer <METRICS_TOKEN>`; 401 without a good credential, 403 for any other role and for an
 * admin limited to some tenants (the figures count every tenant). With
 * AUTH=off every caller is the admin. The path is outside the protected prefixes: the auth gate only learns
 * who asks, and this route decides.
 */
export function registerMetricsRoute(router: Router, metrics: MetricsText, token: string | undefined): void {
  const tokenDigest = token === undefined ? undefined : digest(token);
  router.get("/metrics", async (ctx) => {
    const principal = requestOf(ctx).principal;
    if (!(tokenDigest && scraperToken(ctx.get("Authorization"), tokenDigest))) {
      if (!principal)
        throw new AppError("Unauthorized", "/metrics needs an admin's token or the metrics token");
      checkPermission(principal, "admin");
      checkAllTenants(principal, "/metrics");
    }
    ctx.set("Content-Type", metrics.contentType);
    ctx.set("Cache-Control", "no-store");
    ctx.body = await metrics.render();
  });
}

/** True when the Authorization header carries the scrapers' static token (compared in constant time). */
function scraperToken(authorization: string, expected: Buffer): boolean {
  if (!authorization) return false;
  try {
    return timingSafeEqual(digest(bearerOf(authorization)), expected);
  } catch {
    return false;
  }
}
