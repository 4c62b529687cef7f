import { buffer, clustersDbscan, convex, featureCollection, point } from "@turf/turf";
import { AppError, notFound } from "../../../errors";
import type { AccidentService } from "../accidents/accident-service";
import { congestionIndex, congestionLevel } from "../flow/congestion";
import { matchZone } from "./district-names";
import { BUCKET_MS, type FlowRollup } from "../flow/flow-rollup";
import { fitForecast, type ForecastModel } from "../forecast/forecast-model";
import type { CongestionArea, ForecastPoint, Zone, ZoneTraffic } from "../models";
import type { TrafficProjection } from "../projection/traffic-projection";

/** History the forecast is fitted on. */
const FIT_WINDOW_MS = 28 * 86_400_000;
/** Cameras closer than this belong to one congested area (DBSCAN radius, km). */
const AREA_RADIUS_KM = 1.2;

/**
 * Zones (the city's districts, docs/rest.md "Conventions") and their traffic (docs/rest.md
 * "Traffic"): the realtime state per zone, congested areas as polygons, and the forecast.
 */
export class ZoneService {
  private models = new Map<string, { bucket: number; model: ForecastModel }>();

  constructor(
    private readonly projection: TrafficProjection,
    private readonly rollup: FlowRollup,
    private readonly accidents: AccidentService,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every zone, by name. */
  list(): Zone[] {
    return this.projection.zoneList();
  }

  /** A zone by id or name (docs/rest.md); 400 INVALID_PARAMETER with the known names if unknown. */
  resolve(name: string, parameter = "district"): Zone {
    const z = matchZone(name, this.list());
    if (z) return z;
    throw new AppError("BadRequestData", `Unknown ${parameter}: ${name}`, {
      parameter,
      value: name,
      expected: this.list().map((x) => x.name),
    });
  }

  /** A zone by id; 404 NOT_FOUND if unknown (for a path or a required zone_id). */
  get(id: string): Zone {
    const z = this.projection.zones.get(id) ?? matchZone(id, this.list());
    if (!z) throw notFound(`Zone ${id} does not exist`, { zone_id: id });
    return z;
  }

  /** realtime: the state of each zone (or of one) from its cameras' latest observations. */
  realtime(only?: Zone): ZoneTraffic[] {
    const now = this.now();
    const active = new Map<string, number>();
    for (const a of this.accidents.all({ status: "active" })) {
      if (a.zoneId) active.set(a.zoneId, (active.get(a.zoneId) ?? 0) + 1);
    }
    for (const a of this.accidents.all({ status: "investigating" })) {
      if (a.zoneId) active.set(a.zoneId, (active.get(a.zoneId) ?? 0) + 1);
    }
    return (only ? [only] : this.list()).map((zone) => {
      let speed = 0;
      let vehicles = 0;
      let ratio = 0;
      let n = 0;
      let ffSum = 0;
      for (const id of zone.cameraIds) {
        const f = this.projection.flows.get(id);
        if (!f || now - f.observedAt > 15 * 60_000) continue;
        const ff = this.rollup.freeFlow.get(id) ?? f.averageSpeed;
        speed += f.averageSpeed;
        vehicles += f.intensity;
        ratio += ff > 0 ? Math.min(1, f.averageSpeed / ff) : 1;
        ffSum += ff;
        n++;
      }
      const avgSpeed = n ? speed / n : 0;
      const freeFlow = n ? ffSum / n : 0;
      const r = n ? ratio / n : 1;
      return {
        zone,
        at: now,
        congestionLevel: congestionLevel(r, 1),
        congestionIndex: congestionIndex(r, 1),
        avgSpeed: round1(avgSpeed),
        freeFlowSpeed: round1(freeFlow),
        delayPercent: n && r > 0 ? Math.round((1 / r - 1) * 100) : 0,
        vehicleCount: vehicles,
        incidentCount: active.get(zone.id) ?? 0,
        reporting: n,
      };
    });
  }

  /**
   * congestion-zones: cameras now at `moderate` or worse, clustered (DBSCAN, 1.2 km), each
   * cluster's convex hull around 300 m buffers of its cameras, with the cluster's level.
   */
  congestionAreas(): CongestionArea[] {
    const now = this.now();
    const pts = [];
    for (const c of this.projection.cameraList()) {
      const f = this.projection.flows.get(c.id);
      if (!f || now - f.observedAt > 15 * 60_000) continue;
      const ff = this.rollup.freeFlow.get(c.id) ?? 0;
      const r = ff > 0 ? f.averageSpeed / ff : 1;
      if (r >= 0.7) continue;
      pts.push(
        point([c.location.lon, c.location.lat], { id: c.id, zone: c.zoneId, r, speed: f.averageSpeed }),
      );
    }
    if (pts.length === 0) return [];
    const clustered = clustersDbscan(featureCollection(pts), AREA_RADIUS_KM, { minPoints: 1 });
    const groups = new Map<number, typeof clustered.features>();
    for (const f of clustered.features) {
      const k = (f.properties as { cluster?: number }).cluster ?? -1;
      const g = groups.get(k) ?? [];
      g.push(f);
      groups.set(k, g);
    }
    const areas: CongestionArea[] = [];
    for (const [k, members] of [...groups.entries()].sort((a, b) => a[0] - b[0])) {
      const hull = convex(buffer(featureCollection(members), 0.3, { units: "kilometers", steps: 4 })!);
      if (!hull) continue;
      const props = members.map(
        (m) => m.properties as { id: string; zone?: string; r: number; speed: number },
      );
      const r = props.reduce((a, p) => a + p.r, 0) / props.length;
      const zones = new Map<string, number>();
      for (const p of props) if (p.zone) zones.set(p.zone, (zones.get(p.zone) ?? 0) + 1);
      const zoneId = [...zones.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      areas.push({
        id: `area-${k < 0 ? "n" : k}-${props[0].id}`,
        zoneId,
        name: zoneId ? (this.projection.zones.get(zoneId)?.name ?? zoneId) : "Outside the districts",
        level: congestionLevel(r, 1),
        ring: hull.geometry.coordinates[0] as [number, number][],
        cameraIds: props.map((p) => p.id),
        avgSpeed: round1(props.reduce((a, p) => a + p.speed, 0) / props.length),
      });
    }
    return areas;
  }

  /** forecast: one point per hour for `hours` hours from the zone's model. */
  forecast(zone: Zone, hours: number): { model: ForecastModel | undefined; points: ForecastPoint[] } {
    const model = this.model(zone);
    if (!model) return { model, points: [] };
    const freeFlow = this.rollup.zoneFreeFlow(zone.cameraIds);
    const points: ForecastPoint[] = [];
    const now = this.now();
    // steps from the model's next bucket to each whole hour ahead of now
    const firstHour = Math.ceil((now + 1) / 3_600_000) * 3_600_000;
    for (let k = 0; k < hours; k++) {
      const t = firstHour + k * 3_600_000;
      const h = Math.max(1, Math.round((t - model.next) / BUCKET_MS) + 1);
      const { value, sd: fitSd } = model.predict(h);
      const speed = Math.max(0, value);
      // with less than a week of history the profile has not seen this hour of the week: widen, trust less
      const coverage = Math.min(1, model.fit.weeks);
      const sd = fitSd + 0.15 * speed * (1 - coverage);
      points.push({
        timestamp: t,
        speed: round1(speed),
        low: round1(Math.max(0, speed - 1.96 * sd)),
        high: round1(speed + 1.96 * sd),
        level: congestionLevel(speed, freeFlow),
        confidence:
          speed > 0
            ? Math.round(Math.max(0, Math.min(1, 1 - (1.96 * sd) / speed)) * coverage * 100) / 100
            : 0,
      });
    }
    return { model, points };
  }

  /** The zone's model, refitted once per 15-minute bucket. */
  private model(zone: Zone): ForecastModel | undefined {
    const now = this.now();
    const bucket = Math.floor(now / BUCKET_MS);
    const hit = this.models.get(zone.id);
    if (hit && hit.bucket === bucket) return hit.model;
    const { start, values } = this.rollup.speedSeries(zone.id, now - FIT_WINDOW_MS, now);
    const first = values.findIndex(Number.isFinite);
    if (first < 0) return undefined;
    const model = fitForecast(values.slice(first), start + first * BUCKET_MS, BUCKET_MS);
    this.models.set(zone.id, { bucket, model });
    return model;
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
