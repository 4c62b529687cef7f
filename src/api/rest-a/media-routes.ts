import fs from "node:fs";
import type Router from "@koa/router";
import { notFound } from "../../errors";
import type { ReportsApi } from "../rest/reports-api";

/** GET /media/{sha256}.jpg: a stored report image (content-addressed, so cached for a year). */
export function registerMediaRoutes(router: Router, api: ReportsApi): void {
  router.get("/media/:name", (ctx) => {
    const file = api.media.fileOf(ctx.params.name);
    if (!file) throw notFound(`No image ${ctx.params.name}`, { name: ctx.params.name });
    ctx.type = "image/jpeg";
    ctx.set("Cache-Control", "private, max-age=31536000, immutable");
    ctx.body = fs.createReadStream(file);
  });
}
