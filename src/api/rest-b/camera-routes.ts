import type { CameraView } from "../../domain/traffic";
import { cameraMetadata, frameSize } from "../../domain/traffic/cameras/camera-metadata";
import { notFound } from "../../errors";
import type { RouteSpec } from "../rest/schema-route";
import { REST_B_PREFIX, type RestBDeps } from "./deps";
import { ListMemo, listAnswer } from "./list-form";
import { period, timeParam } from "./params";
import { CAMERA_STATUS, Q } from "./query-schemas";
import { CAMERA, CAMERA_DETAIL, CAMERA_STATS, listOf } from "./schemas";
import * as shape from "./response-mappers";

/**
 * How far from the asked `timestamp` a stored frame may be for GET /cameras/{id}/image (either side):
 * 10 minutes. A camera's frames are kept when they are fetched, so they are minutes apart at best.
 */
export const IMAGE_MATCH_WINDOW_MS = 10 * 60_000;

/** Numeric ids in numeric order, then the rest by code unit: the keyset order of the camera list. */
const cameraKey = (v: CameraView) => {
  const n = Number(v.camera.id);
  return [Number.isSafeInteger(n) ? n : v.camera.id, v.camera.id];
};
/** A camera's effective status depends on the time too (silent 15 minutes: inactive): lists last 10 s at most. */
const STATUS_BUCKET_MS = 10_000;

/** §4.2 Cameras (B). */
export function cameraRoutes(b: RestBDeps): RouteSpec[] {
  const { d } = b;
  const zones = d.projection.zones;
  const order = { key: cameraKey };
  const memo = new ListMemo<CameraView>(order);
  return [
    {
      method: "get",
      path: "/cameras",
      operationId: "listCameras",
      summary: "Cameras by status and location (a district's id or name), page form or cursor form",
      tag: "cameras",
      access: "viewer",
      query: {
        type: "object",
        properties: {
          page: Q.page,
          limit: Q.limit,
          cursor: Q.cursor,
          status: CAMERA_STATUS,
          location: Q.district,
        },
      },
      response: listOf("cameras", CAMERA),
      handler: (ctx, { query }) => {
        const zoneId =
          typeof query.location === "string" ? d.zones.resolve(query.location, "location").id : undefined;
        const status = query.status as CameraView["status"] | undefined;
        const key = `${d.projection.version}|${Math.floor(b.now() / STATUS_BUCKET_MS)}|${zoneId}|${status}`;
        return listAnswer(ctx, b.codec, query, {
          name: "cameras",
          items: () =>
            memo.get(key, () => d.cameras.list({ zoneId, status }, Number.MAX_SAFE_INTEGER, 0).items),
          order,
          filters: { zoneId, status },
          map: (v) => shape.camera(v, zones),
        });
      },
    },
    {
      method: "get",
      path: "/cameras/:camera_id",
      operationId: "getCamera",
      summary: "One camera with stream_url, last_image and metadata",
      tag: "cameras",
      access: "viewer",
      params: { camera_id: "Camera id" },
      response: CAMERA_DETAIL,
      handler: async (_ctx, { params }) => {
        const v = d.cameras.get(params.camera_id);
        const size = await b.images.latest(v).then(
          (f) => frameSize(f.jpeg),
          () => undefined,
        );
        return shape.cameraDetail(v, zones, cameraMetadata(v.camera, size), REST_B_PREFIX);
      },
    },
    {
      method: "get",
      path: "/cameras/:camera_id/image",
      operationId: "getCameraImage",
      summary: `The camera's frame as JPEG: the latest, or with timestamp the stored frame nearest to it (within ${IMAGE_MATCH_WINDOW_MS / 60_000} minutes either side, else 404)`,
      tag: "cameras",
      access: "viewer",
      params: { camera_id: "Camera id" },
      query: {
        type: "object",
        properties: {
          timestamp: {
            type: "string",
            format: "date-time",
            description: `Time of the wanted frame (ISO 8601); the nearest stored frame within ${IMAGE_MATCH_WINDOW_MS / 60_000} minutes is returned`,
          },
        },
      },
      response: { type: "string", contentMediaType: "image/jpeg" },
      produces: "image/jpeg",
      handler: async (ctx, { params, query }) => {
        const v = d.cameras.get(params.camera_id);
        const at = timeParam(query.timestamp);
        const frame = at === undefined ? await b.images.latest(v) : await nearestFrame(b, v, at);
        if (!frame) {
          throw notFound(
            `No stored frame of camera ${v.camera.id} within ${IMAGE_MATCH_WINDOW_MS / 60_000} minutes of ${String(query.timestamp)}`,
            {
              camera_id: v.camera.id,
              timestamp: query.timestamp,
            },
          );
        }
        ctx.set("X-Image-Source", frame.source);
        ctx.set("X-Frame-Time", new Date(frame.takenAt).toISOString());
        ctx.set("Last-Modified", new Date(frame.takenAt).toUTCString());
        return frame.jpeg;
      },
    },
    {
      method: "get",
      path: "/cameras/:camera_id/stats",
      operationId: "getCameraStats",
      summary:
        "Vehicles, mean speed, peak hour, congested minutes and accidents of a camera over a period (default: the last 24 hours)",
      tag: "cameras",
      access: "viewer",
      params: { camera_id: "Camera id" },
      query: { type: "object", properties: { start_time: Q.startTime, end_time: Q.endTime } },
      response: CAMERA_STATS,
      handler: (_ctx, { params, query }) => {
        const v = d.cameras.get(params.camera_id);
        const { from, to } = period(query, b.now());
        return shape.cameraStats(v.camera.id, from, to, b.stats.camera(v.camera.id, from, to));
      },
    },
  ];
}

/** The stored frame nearest to `at` within the window, looking on both sides of it. */
async function nearestFrame(b: RestBDeps, v: CameraView, at: number) {
  if (!b.images.at) return undefined;
  const before = await b.images.at(v, at);
  const upToAfter = await b.images.at(v, at + IMAGE_MATCH_WINDOW_MS);
  const candidates = [before, upToAfter].filter(
    (f) => f !== undefined && Math.abs(f.takenAt - at) <= IMAGE_MATCH_WINDOW_MS,
  );
  if (candidates.length === 0) return undefined;
  return candidates.reduce((x, y) => (Math.abs(y!.takenAt - at) < Math.abs(x!.takenAt - at) ? y : x));
}
