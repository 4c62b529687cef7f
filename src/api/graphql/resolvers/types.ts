import { GraphQLError, Kind, type ValueNode } from "graphql";
import type { CameraView } from "../../../domain/traffic";
import type { GraphqlContext } from "../graphql-context";
import type { Resolvers } from "./resolver-map";

/** An accident node: the domain's Accident, or an accident event's data (both carry these fields). */
export interface AccidentNode {
  id: string;
  timestamp: number | string;
  location: { lat: number; lon: number };
  severity: string;
  status: string;
  vehiclesInvolved: number;
  injuries: number;
  fatalities: number;
  cameraId?: string;
  images: string[];
  zoneId?: string;
  change?: string;
}

const upper = (s: string | undefined) => (s === undefined ? null : s.toUpperCase());

/** ISO texts of recent epoch ms: a page of cameras shows the same timestamps on every request. */
const isoTexts = new Map<number, string>();

function isoText(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString();
    if (isoTexts.size >= 4096) isoTexts.clear();
    isoTexts.set(ms, text);
  }
  return text;
}

/** DateTime: ISO 8601 text out (from epoch ms or text), epoch ms in. */
export const dateTimeScalar = {
  serialize(v: unknown): string {
    if (typeof v === "number") return isoText(v);
    if (v instanceof Date) return v.toISOString();
    if (typeof v === "string" && !Number.isNaN(Date.parse(v))) return new Date(Date.parse(v)).toISOString();
    throw new GraphQLError("DateTime cannot represent this value");
  },
  parseValue(v: unknown): number {
    const t = typeof v === "string" ? Date.parse(v) : NaN;
    if (Number.isNaN(t)) {
      throw new GraphQLError(`DateTime must be an ISO 8601 date-time, got ${JSON.stringify(v)}`, {
        extensions: { code: "INVALID_PARAMETER" },
      });
    }
    return t;
  },
  parseLiteral(node: ValueNode): number {
    return dateTimeScalar.parseValue(node.kind === Kind.STRING ? node.value : undefined);
  },
};

/** The field resolvers of the object types (§4.11 Types): enum values in upper case, nested reads batched. */
export const typeResolvers: Resolvers = {
  Camera: {
    id: (v: CameraView) => v.camera.id,
    name: (v: CameraView) => v.camera.name,
    location: (v: CameraView, _a, ctx: GraphqlContext) => {
      const c = v.camera;
      const zone = c.zoneId ? ctx.domain.projection.zones.get(c.zoneId) : undefined;
      // named keys, not a spread plus one, which was much slower to make and to serialize
      // (docs/decisions/0018-small-hot-path-costs.md)
      return { lat: c.location.lat, lon: c.location.lon, address: zone ? `${c.name}, ${zone.name}` : c.name };
    },
    status: (v: CameraView) => upper(v.status),
    lastUpdate: (v: CameraView) => v.lastUpdate,
    capabilities: (v: CameraView) => v.camera.capabilities,
    statistics: (v: CameraView, _a, ctx: GraphqlContext) => ctx.statistics(v.camera.id),
    streamUrl: (v: CameraView) => v.camera.streamUrl ?? null,
    zoneId: (v: CameraView) => v.camera.zoneId ?? null,
  },
  Accident: {
    severity: (a: AccidentNode) => upper(a.severity),
    status: (a: AccidentNode) => upper(a.status),
    camera: (a: AccidentNode, _a, ctx: GraphqlContext) => (a.cameraId ? ctx.cameras.load(a.cameraId) : null),
    zoneId: (a: AccidentNode) => a.zoneId ?? null,
    change: (a: AccidentNode) => upper(a.change),
  },
  ZoneTraffic: {
    congestionLevel: (z: { congestionLevel: string }) => upper(z.congestionLevel),
  },
};
