import type { WeatherEventData, ZoneTrafficEventData } from "../../events/live-event";
import type { Entity } from "../../ngsi-ld/model/entity";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { TrafficDomain } from "../traffic";
import { inTrafficTerms, typeList } from "../traffic/projection/entity-terms";
import type { Weather, ZoneTraffic } from "../traffic/models";
import { accidentOf, flowOf, weatherOf } from "../traffic/projection/models-from-entities";
import { locateZone } from "../traffic/projection/zone-locator";
import type { AccidentState, LiveModel } from "./live-model";

/** The live model over the traffic domain: its read models, its projection and its zone state. */
export function trafficLiveModel(domain: TrafficDomain): LiveModel {
  const p = domain.projection;
  const terms = (e: Entity, ctx: CompiledContext, type: string): Entity | undefined => {
    const t = inTrafficTerms(e, ctx, p.traffic);
    return typeList(t).includes(type) ? t : undefined;
  };
  return {
    accident(e, ctx): AccidentState | undefined {
      const t = terms(e, ctx, "TrafficAccident");
      const a = t && accidentOf(t);
      if (!a) return undefined;
      return {
        id: a.id,
        entityId: a.entityId,
        timestamp: new Date(a.timestamp).toISOString(),
        location: a.location,
        severity: a.severity,
        status: a.status,
        vehiclesInvolved: a.vehiclesInvolved,
        injuries: a.injuries,
        fatalities: a.fatalities,
        cameraId: a.cameraId,
        zoneId: locateZone(p.zones.values(), a.location)?.id,
        images: a.images,
      };
    },
    weather(e, ctx) {
      const t = terms(e, ctx, "WeatherObserved");
      const w = t && weatherOf(t);
      return w ? { at: w.observedAt, data: weatherData(w) } : undefined;
    },
    flowZone(e, ctx) {
      const t = terms(e, ctx, "TrafficFlowObserved");
      const f = t && flowOf(t);
      return f ? p.cameras.get(f.cameraId)?.zoneId : undefined;
    },
    zoneState(zoneId) {
      const zone = p.zones.get(zoneId);
      if (!zone) return undefined;
      const z = domain.zones.realtime(zone)[0];
      return z ? { at: z.at, data: zoneData(z) } : undefined;
    },
    zoneIds: () => [...p.zones.keys()],
    latestWeather: () => [...p.weather.values()].map((w) => ({ at: w.observedAt, data: weatherData(w) })),
  };
}

/** The event data of a zone's state. */
export function zoneData(z: ZoneTraffic): ZoneTrafficEventData {
  return {
    zoneId: z.zone.id,
    name: z.zone.name,
    congestionLevel: z.congestionLevel,
    congestionIndex: z.congestionIndex,
    avgSpeed: z.avgSpeed,
    vehicleCount: z.vehicleCount,
    incidentCount: z.incidentCount,
    reporting: z.reporting,
  };
}

/** The event data of a weather observation. */
export function weatherData(w: Weather): WeatherEventData {
  return {
    stationId: w.stationId,
    name: w.name,
    location: w.location,
    temperature: w.temperature,
    feelsLike: w.feelsLike,
    humidity: w.humidity,
    pressure: w.pressure,
    windSpeed: w.windSpeed,
    windDirection: w.windDirection,
    precipitation: w.precipitation,
    conditions: w.conditions,
  };
}
