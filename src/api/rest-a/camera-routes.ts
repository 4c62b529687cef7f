import type { CameraView, TrafficDomain, Zone } from "../../domain/traffic";
import type { CameraImageSource } from "../../domain/images";
import type { RouteSpec } from "../rest/schema-route";
import { period } from "./params";
import { CAMERA_DETAIL, CAMERA_PAGE, CAMERA_STATISTICS, CAMERA_STATUS, Q } from "./schemas";
import * as shape from "./response-mappers";

/**
 * The JSON text of each camera of the list, kept while the camera's entity, status, last update and
 * zone stay the same: a page is then a string join per camera instead of one large JSON.stringify
 * (docs/decisions/0018-small-hot-path-costs.md).
 */
class CameraJsonCache {
  private readonly texts = new Map<string, { v: CameraView; zone: unknown; json: string }>();

  text(v: CameraView, zones: ReadonlyMap<string, Zone>): string {
    const zone = v.camera.zoneId ? zones.get(v.camera.zoneId) : undefined;
    const hit = this.texts.get(v.camera.id);
    if (
      hit &&
      hit.v.camera === v.camera &&
      hit.v.status === v.status &&
      hit.v.lastUpdate === v.lastUpdate &&
      hit.zone === zone
    )
      return hit.json;
    const json = JSON.stringify(shape.camera(v, zones));
    this.texts.set(v.camera.id, { v, zone, json });
    return json;
  }
}

/** §4.2 Cameras. */
export function cameraRoutes(d: TrafficDomain, images: CameraImageSource): RouteSpec[] {
  const zones = d.projection.zones;
  const texts = new CameraJsonCache();
  return [
    {
      method: "get",
      path: "/cameras",
      operationId: "listCameras",
      summary: "Cameras, filtered by district (polygon containment) and status, offset pagination",
      tag: "cameras",
      access: "viewer",
      query: {
        type: "object",
        properties: { district: Q.district, status: CAMERA_STATUS, limit: Q.limit, offset: Q.offset },
      },
      response: CAMERA_PAGE,
      handler: (_ctx, { query }) => {
        const limit = query.limit as number;
        const offset = query.offset as number;
        const zoneId = typeof query.district === "string" ? d.zones.resolve(query.district).id : undefined;
        const status = query.status as "active" | "inactive" | "error" | undefined;
        const page = d.cameras.list({ zoneId, status }, limit, offset);
        const items = page.items.map((v) => texts.text(v, zones)).join(",");
        return `{"total":${page.total},"limit":${limit},"offset":${offset},"cameras":[${items}]}`;
      },
    },
    {
      method: "get",
      path: "/cameras/:camera_id",
      operationId: "getCamera",
      summary: "One camera with its statistics (uptime over 24 h, detections today, mean vehicles per hour)",
      tag: "cameras",
      access: "viewer",
      params: { camera_id: "Camera id" },
      response: CAMERA_DETAIL,
      handler: (_ctx, { params }) => {
        const v = d.cameras.get(params.camera_id);
        return shape.cameraDetail(v, zones, d.cameras.detailStats(v.camera.id));
      },
    },
    {
      method: "get",
      path: "/cameras/:camera_id/latest-image",
      operationId: "getCameraLatestImage",
      summary: "The camera's latest frame as JPEG (rendered offline unless a snapshot source is configured)",
      tag: "cameras",
      access: "viewer",
      params: { camera_id: "Camera id" },
      response: { type: "string", contentMediaType: "image/jpeg" },
      produces: "image/jpeg",
      handler: async (ctx, { params }) => {
        const v = d.cameras.get(params.camera_id);
        const frame = await images.latest(v);
        ctx.set("X-Image-Source", frame.source);
        ctx.set("Last-Modified", new Date(frame.takenAt).toUTCString());
        ctx.set("Cache-Control", "max-age=30");
        return frame.jpeg;
      },
    },
    {
      method: "get",
      path: "/cameras/:camera_id/statistics",
      operationId: "getCameraStatistics",
      summary: "Vehicle count, mean speed and accidents per hour, day or week from the temporal history",
      tag: "cameras",
      access: "viewer",
      params: { camera_id: "Camera id" },
      query: {
        type: "object",
        required: ["start_date", "end_date"],
        properties: {
          start_date: Q.startDate,
          end_date: Q.endDate,
          interval: { type: "string", enum: ["hour", "day", "week"], default: "hour" },
        },
      },
      response: CAMERA_STATISTICS,
      handler: (_ctx, { params, query }) => {
        const v = d.cameras.get(params.camera_id);
        const { from, to } = period(query);
        const interval = query.interval as "hour" | "day" | "week";
        return shape.cameraStatistics(
          v.camera.id,
          from,
          to,
          interval,
          d.cameras.statistics(v.camera.id, from, to, interval),
        );
      },
    },
  ];
}
