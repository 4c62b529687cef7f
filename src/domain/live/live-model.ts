import type { Entity } from "../../ngsi-ld/model/entity";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { AccidentEventData, WeatherEventData, ZoneTrafficEventData } from "../../events/live-event";

/** An accident as the live events see it, before the change is known. */
export type AccidentState = Omit<AccidentEventData, "change" | "previousSeverity" | "previousStatus">;

/**
 * What the live producer reads from the traffic model: the same read models and zone state as the
 * REST and GraphQL faces (src/domain/traffic), never its own parsing of entities.
 */
export interface LiveModel {
  /** The accident an entity holds (any context), or undefined when it is not an accident. */
  accident(e: Entity, ctx: CompiledContext): AccidentState | undefined;
  /** The weather observation an entity holds, with its observation time (epoch ms). */
  weather(e: Entity, ctx: CompiledContext): { at: number; data: WeatherEventData } | undefined;
  /** The zone of the camera of a flow observation entity, or undefined when it is none or has no zone. */
  flowZone(e: Entity, ctx: CompiledContext): string | undefined;
  /** The zone's traffic state now, computed from its cameras' latest observations. */
  zoneState(zoneId: string): { at: number; data: ZoneTrafficEventData } | undefined;
  /** Every zone id (for a resume's current states). */
  zoneIds(): string[];
  /** Every weather station's latest observation (for a resume). */
  latestWeather(): { at: number; data: WeatherEventData }[];
}
