import fs from "node:fs";
import { notFound } from "../../errors";
import type { ReportsApi } from "../rest/reports-api";
import type { RouteSpec } from "../rest/schema-route";

/** GET /media/{sha256}.jpg: a stored report image (content-addressed, so cached for a year). */
export function mediaRoutes(api: ReportsApi): RouteSpec[] {
  return [
    {
      method: "get",
      path: "/media/:name",
      operationId: "getReportImage",
      summary: "A report's image: JPEG, at most 1920x1080, without metadata; the URL never changes",
      tag: "citizen-reports",
      access: "viewer",
      params: { name: "<sha256>.jpg" },
      response: { type: "string", contentMediaType: "image/jpeg" },
      produces: "image/jpeg",
      handler: (ctx, { params }) => {
        const file = api.media.fileOf(params.name);
        if (!file) throw notFound(`No image ${params.name}`, { name: params.name });
        ctx.type = "image/jpeg";
        ctx.set("Cache-Control", "private, max-age=31536000, immutable");
        return fs.createReadStream(file);
      },
    },
  ];
}
