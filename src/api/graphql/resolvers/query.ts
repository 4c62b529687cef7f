import { weatherData, zoneData } from "../../../domain/live/traffic-live-model";
import type { CameraStatus, Severity } from "../../../domain/traffic";
import { badRequest } from "../../../errors";
import type { GraphqlContext } from "../graphql-context";
import { MAX_PAGE } from "../query-limits";
import type { Resolvers } from "./resolver-map";

type Args = Record<string, unknown>;

/** §4.11 query fields over the traffic domain (the same services as REST A and B). */
export const queryResolvers: Resolvers = {
  Query: {
    cameras: (_r, a: Args, ctx: GraphqlContext) => {
      const { limit, offset } = page(a);
      const zoneId =
        typeof a.district === "string" ? ctx.domain.zones.resolve(a.district, "district").id : undefined;
      const status = typeof a.status === "string" ? (a.status.toLowerCase() as CameraStatus) : undefined;
      const r = ctx.domain.cameras.list({ zoneId, status }, limit, offset);
      return connection(r.items, r.total, offset);
    },
    camera: (_r, a: Args, ctx: GraphqlContext) => ctx.domain.cameras.get(String(a.id)),
    accidents: (_r, a: Args, ctx: GraphqlContext) => {
      const { limit, offset } = page(a);
      const r = ctx.domain.accidents.list(
        {
          from: a.startDate as number | undefined,
          to: a.endDate as number | undefined,
          severity: typeof a.severity === "string" ? (a.severity.toLowerCase() as Severity) : undefined,
          zoneId:
            typeof a.district === "string" ? ctx.domain.zones.resolve(a.district, "district").id : undefined,
        },
        limit,
        offset,
      );
      return connection(r.items, r.total, offset);
    },
    accident: (_r, a: Args, ctx: GraphqlContext) => ctx.domain.accidents.get(String(a.id)),
    traffic: (_r, a: Args, ctx: GraphqlContext) => {
      const only = typeof a.zoneId === "string" ? ctx.domain.zones.get(a.zoneId) : undefined;
      return { timestamp: Date.now(), zones: ctx.domain.zones.realtime(only).map(zoneData) };
    },
    weather: (_r, _a, ctx: GraphqlContext) => {
      const w = ctx.domain.weather.current();
      return weatherNode(w.observedAt, weatherData(w));
    },
    airQuality: (_r, _a, ctx: GraphqlContext) => ({
      timestamp: Date.now(),
      stations: ctx.domain.airQuality.current(),
    }),
  },
};

/** The WeatherData node of an observation. */
export function weatherNode(at: number | string, d: ReturnType<typeof weatherData>) {
  return { timestamp: at, ...d, wind: { speed: d.windSpeed ?? null, direction: d.windDirection ?? null } };
}

/** limit (1..100, default 50) and offset (>= 0, default 0), or 400 INVALID_PARAMETER. */
function page(a: Args): { limit: number; offset: number } {
  const limit = a.limit === undefined || a.limit === null ? 50 : Number(a.limit);
  const offset = a.offset === undefined || a.offset === null ? 0 : Number(a.offset);
  if (limit < 1 || limit > MAX_PAGE) {
    throw badRequest(`limit must be between 1 and ${MAX_PAGE}`, {
      parameter: "limit",
      value: limit,
      expected: `1..${MAX_PAGE}`,
    });
  }
  if (offset < 0)
    throw badRequest("offset must not be negative", { parameter: "offset", value: offset, expected: ">= 0" });
  return { limit, offset };
}

/** A Relay connection of one offset page; cursors are the base64 of the item's offset. */
function connection<T>(items: T[], total: number, offset: number) {
  const cursor = (i: number) => Buffer.from(`offset:${offset + i}`).toString("base64");
  return {
    edges: items.map((node, i) => ({ node, cursor: cursor(i) })),
    totalCount: total,
    pageInfo: {
      hasNextPage: offset + items.length < total,
      hasPreviousPage: offset > 0,
      startCursor: items.length ? cursor(0) : null,
      endCursor: items.length ? cursor(items.length - 1) : null,
    },
  };
}
