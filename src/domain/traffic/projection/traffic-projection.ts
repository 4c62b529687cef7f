import type { Entity } from "../../../ngsi-ld/model/entity";
import type { CompiledContext } from "../../../rdf/contexts/compiled-context";
import { inTrafficTerms, typeList } from "./entity-terms";
import type { Accident, AirQualityStation, Camera, FlowObservation, Weather, Zone } from "../models";
import { accidentOf, airQualityOf, cameraOf, flowOf, weatherOf, zoneOf } from "./models-from-entities";
import { locateZone } from "./zone-locator";

/** The entity types the projection follows (traffic context terms). */
export const PROJECTED_TYPES = [
  "District",
  "TrafficCamera",
  "TrafficAccident",
  "TrafficFlowObserved",
  "WeatherObserved",
  "AirQualityObserved",
] as const;

/**
 * The read models of the current state of the city (docs/design.md "Indexes beside the store, derived
 * from it"): cameras, zones, accidents, the latest flow per camera, weather and air-quality stations
 * of the default tenant, built from the graph at start and kept current by the change feed (a derived
 * stage of the commit pipeline). A cache: dropping it and rebuilding from the graph gives the same
 * state. Faces never read it directly; the domain services do.
 */
export class TrafficProjection {
  readonly cameras = new Map<string, Camera>();
  readonly zones = new Map<string, Zone>();
  readonly accidents = new Map<string, Accident>();
  /** Latest observation per camera id. */
  readonly flows = new Map<string, FlowObservation>();
  /** Flow entity id per camera id (for its temporal history). */
  readonly flowEntities = new Map<string, string>();
  readonly weather = new Map<string, Weather>();
  readonly airQuality = new Map<string, AirQualityStation>();
  /** Bumped by every change: answers computed from the state can be cached per version. */
  version = 0;
  private byEntity = new Map<string, { kind: string; key: string }>();
  private flowListeners: ((f: FlowObservation) => void)[] = [];
  private sortedCameras: Camera[] | undefined;
  private sortedAccidents: Accident[] | undefined;
  private sortedZones: Zone[] | undefined;

  constructor(readonly traffic: CompiledContext) {}

  /** Called with every new flow observation (the rollups listen). */
  onFlow(l: (f: FlowObservation) => void): void {
    this.flowListeners.push(l);
  }

  /** Cameras in id order (numeric ids numerically). */
  cameraList(): Camera[] {
    return (this.sortedCameras ??= [...this.cameras.values()].sort((a, b) => compareIds(a.id, b.id)));
  }

  /** Zones by name (Vietnamese collation). */
  zoneList(): Zone[] {
    return (this.sortedZones ??= [...this.zones.values()].sort((a, b) => a.name.localeCompare(b.name, "vi")));
  }

  /** Accidents, newest first. */
  accidentList(): Accident[] {
    return (this.sortedAccidents ??= [...this.accidents.values()].sort(
      (a, b) => b.timestamp - a.timestamp || a.id.localeCompare(b.id),
    ));
  }

  /** Applies an entity as it now stands (`ctx` = the context it is compacted with). */
  put(raw: Entity, ctx: CompiledContext): void {
    const e = inTrafficTerms(raw, ctx, this.traffic);
    const types = typeList(e);
    this.version++;
    if (types.includes("TrafficCamera")) {
      const c = cameraOf(e);
      if (c) {
        const old = this.cameras.get(c.id);
        c.zoneId = locateZone(this.zones.values(), c.location)?.id;
        if (old?.zoneId && old.zoneId !== c.zoneId) {
          const z = this.zones.get(old.zoneId);
          if (z) z.cameraIds = z.cameraIds.filter((id) => id !== c.id);
        }
        if (c.zoneId && old?.zoneId !== c.zoneId) this.zones.get(c.zoneId)?.cameraIds.push(c.id);
        this.cameras.set(c.id, c);
        this.track(e.id, "camera", c.id);
        this.sortedCameras = undefined;
      }
    } else if (types.includes("District")) {
      const z = zoneOf(e);
      if (z) {
        this.zones.set(z.id, z);
        this.sortedZones = undefined;
        this.track(e.id, "zone", z.id);
        this.assignCameras();
      }
    } else if (types.includes("TrafficAccident")) {
      const a = accidentOf(e);
      if (a) {
        a.zoneId = locateZone(this.zones.values(), a.location)?.id;
        this.accidents.set(a.id, a);
        this.track(e.id, "accident", a.id);
        this.sortedAccidents = undefined;
      }
    } else if (types.includes("TrafficFlowObserved")) {
      const f = flowOf(e);
      if (f) {
        const prev = this.flows.get(f.cameraId);
        if (!prev || prev.observedAt <= f.observedAt) this.flows.set(f.cameraId, f);
        this.flowEntities.set(f.cameraId, e.id);
        this.track(e.id, "flow", f.cameraId);
        for (const l of this.flowListeners) l(f);
      }
    } else if (types.includes("WeatherObserved")) {
      const w = weatherOf(e);
      if (w) {
        this.weather.set(w.entityId, w);
        this.track(e.id, "weather", w.entityId);
      }
    } else if (types.includes("AirQualityObserved")) {
      const a = airQualityOf(e);
      if (a) {
        this.airQuality.set(a.id, a);
        this.track(e.id, "air", a.id);
      }
    }
  }

  /** Removes a deleted entity. */
  remove(entityId: string): void {
    const t = this.byEntity.get(entityId);
    if (!t) return;
    this.version++;
    this.byEntity.delete(entityId);
    const maps: Record<string, Map<string, unknown>> = {
      camera: this.cameras,
      zone: this.zones,
      accident: this.accidents,
      flow: this.flows,
      weather: this.weather,
      air: this.airQuality,
    };
    maps[t.kind].delete(t.key);
    this.sortedCameras = undefined;
    this.sortedZones = undefined;
    if (t.kind === "flow") this.flowEntities.delete(t.key);
    if (t.kind === "zone" || t.kind === "camera") this.assignCameras();
    this.sortedAccidents = undefined;
  }

  private track(entityId: string, kind: string, key: string): void {
    this.byEntity.set(entityId, { kind, key });
  }

  /** Re-derives which zone holds each camera and accident (after a zone or a camera moved). */
  private assignCameras(): void {
    for (const z of this.zones.values()) z.cameraIds = [];
    for (const c of this.cameraList()) {
      const zone = locateZone(this.zones.values(), c.location);
      c.zoneId = zone?.id;
      zone?.cameraIds.push(c.id);
    }
    for (const a of this.accidents.values()) a.zoneId = locateZone(this.zones.values(), a.location)?.id;
    this.sortedCameras = undefined;
  }
}

/** Numeric ids in numeric order, then the rest in string order. */
function compareIds(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isInteger(na) && Number.isInteger(nb)) return na - nb;
  return a.localeCompare(b);
}
