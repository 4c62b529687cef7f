import type { AccidentStatus, Severity, TrafficDomain } from "../../domain/traffic";
import { route, type RouteSpec } from "../rest/schema-route";
import { checkPeriod, timeParam } from "./params";
import { ACCIDENT_DETAIL, ACCIDENT_PAGE, ACCIDENT_PATCH, ACCIDENT_STATUS, Q, SEVERITY } from "./schemas";
import * as shape from "./response-mappers";

/** §4.3 Accidents (the citizen report endpoint belongs to the reports face). */
export function accidentRoutes(d: TrafficDomain): RouteSpec[] {
  const zones = d.projection.zones;
  const detail = (id: string) => {
    const a = d.accidents.get(id);
    return shape.accidentDetail(a, zones, d.accidents.timeline(a));
  };
  return [
    {
      method: "get",
      path: "/accidents",
      operationId: "listAccidents",
      summary: "Accidents, newest first, filtered by period, severity, district and status",
      tag: "accidents",
      access: "viewer",
      query: {
        type: "object",
        properties: {
          start_date: Q.startDate,
          end_date: Q.endDate,
          severity: SEVERITY,
          district: Q.district,
          status: ACCIDENT_STATUS,
          limit: Q.limit,
          offset: Q.offset,
        },
      },
      response: ACCIDENT_PAGE,
      handler: (_ctx, { query }) => {
        const from = timeParam(query.start_date);
        const to = timeParam(query.end_date);
        checkPeriod(from, to);
        const limit = query.limit as number;
        const offset = query.offset as number;
        const page = d.accidents.list(
          {
            from,
            to,
            severity: query.severity as Severity | undefined,
            status: query.status as AccidentStatus | undefined,
            zoneId: typeof query.district === "string" ? d.zones.resolve(query.district).id : undefined,
          },
          limit,
          offset,
        );
        return {
          total: page.total,
          limit,
          offset,
          accidents: page.items.map((a) => shape.accident(a, zones)),
        };
      },
    },
    {
      method: "get",
      path: "/accidents/:accident_id",
      operationId: "getAccident",
      summary: "One accident with its timeline (detected, status changes, resolved)",
      tag: "accidents",
      access: "viewer",
      params: { accident_id: "Accident id" },
      response: ACCIDENT_DETAIL,
      handler: (_ctx, { params }) => detail(params.accident_id),
    },
    route({
      method: "patch",
      path: "/accidents/:accident_id",
      operationId: "updateAccidentStatus",
      summary: "Sets an accident's status (operators); each change adds a timeline event",
      tag: "accidents",
      access: "operator",
      params: { accident_id: "Accident id" },
      body: ACCIDENT_PATCH,
      response: ACCIDENT_DETAIL,
      handler: async (_ctx, { params, body }) => {
        const a = await d.accidents.setStatus(params.accident_id, body.status);
        return detail(a.id);
      },
    }),
  ];
}
