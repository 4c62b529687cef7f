import type { Accident, AccidentStatus, Severity } from "../../domain/traffic";
import { accidentBoundingBoxes } from "../../domain/traffic/accidents/accident-boxes";
import { AppError } from "../../errors";
import type { RouteSpec } from "../rest/schema-route";
import type { RestBDeps } from "./deps";
import { ListMemo, listAnswer } from "./list-form";
import { latLonRadius, timeParam } from "./params";
import { ACCIDENT_STATUS, Q, SEVERITY } from "./query-schemas";
import { ACCIDENT, ACCIDENT_DETAIL, listOf } from "./schemas";
import * as shape from "./response-mappers";

/** §4.3 Accidents (B). */
export function accidentRoutes(b: RestBDeps): RouteSpec[] {
  const { d } = b;
  const zones = d.projection.zones;
  const order = { key: (a: Accident) => [a.timestamp, a.id], descending: [true, false] };
  const memo = new ListMemo<Accident>(order);
  return [
    {
      method: "get",
      path: "/accidents",
      operationId: "listAccidents",
      summary:
        "Accidents, newest first, by status, severity, period and distance (location=lat,lon,radius_km, on the geo index); page form or cursor form",
      tag: "accidents",
      access: "viewer",
      query: {
        type: "object",
        properties: {
          status: ACCIDENT_STATUS,
          severity: SEVERITY,
          start_time: Q.startTime,
          end_time: Q.endTime,
          location: Q.latLonRadius,
          page: Q.page,
          limit: Q.limit,
          cursor: Q.cursor,
        },
      },
      response: listOf("accidents", ACCIDENT),
      handler: async (ctx, { query }) => {
        const from = timeParam(query.start_time);
        const to = timeParam(query.end_time);
        if (from !== undefined && to !== undefined && to < from) {
          throw new AppError("BadRequestData", "end_time is before start_time", {
            parameter: "end_time",
            value: query.end_time,
            expected: "a date-time not before start_time",
          });
        }
        const near = latLonRadius(query.location);
        const within = near ? await b.near(near.centre, near.metres) : undefined;
        const filter = {
          from,
          to,
          status: query.status as AccidentStatus | undefined,
          severity: query.severity as Severity | undefined,
        };
        const key = `${d.projection.version}|${JSON.stringify(filter)}|${String(query.location)}`;
        return listAnswer(ctx, b.codec, query, {
          name: "accidents",
          items: () =>
            memo.get(key, () => d.accidents.all(filter).filter((a) => !within || within.has(a.entityId))),
          order,
          filters: { ...filter, near: near ? [near.centre.lat, near.centre.lon, near.metres] : undefined },
          map: (a) => shape.accident(a, zones),
        });
      },
    },
    {
      method: "get",
      path: "/accidents/:accident_id",
      operationId: "getAccident",
      summary:
        "One accident with its timeline {timestamp, event, source} and detection {model, confidence, bounding_boxes}",
      tag: "accidents",
      access: "viewer",
      params: { accident_id: "Accident id" },
      response: ACCIDENT_DETAIL,
      handler: async (_ctx, { params }) => {
        const a = d.accidents.get(params.accident_id);
        const boxes = await accidentBoundingBoxes(b.entities, d.projection, a.entityId);
        return shape.accidentDetail(a, zones, d.accidents.timeline(a), boxes);
      },
    },
  ];
}
