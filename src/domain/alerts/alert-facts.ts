import type { Entity } from "../../ngsi-ld/model/entity";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { pointIn } from "../graph-access";
import { TRAFFIC_NS } from "../vocabulary";
import type { AlertSeverity, AlertType } from "./alert-severity";

const NGSI = "https://uri.etsi.org/ngsi-ld/";

/** A fact worth an alert, before its address and message are filled. */
export interface AlertFact {
  /** Stable alert id (the same fact gives the same id). */
  id: string;
  type: AlertType;
  severity: AlertSeverity;
  lon: number;
  lat: number;
  /** The entity it is about. */
  source: string;
  timestamp: string;
  /** What the message says after the place. */
  summary: string;
}

/** The value of the attribute whose expanded IRI is `iri`, in an entity compacted with `ctx`. */
export function valueByIri(e: Entity, ctx: CompiledContext, iri: string): unknown {
  const key = ctx.compactIri(iri);
  const a = e[key] ?? e[iri];
  const i = (Array.isArray(a) ? a[0] : a) as { value?: unknown } | undefined;
  const v = i?.value;
  if (v && typeof v === "object" && "@value" in (v as object)) return (v as { "@value": unknown })["@value"];
  return v;
}

const T = (n: string) => TRAFFIC_NS + n;
const local = (id: string) => id.slice(id.lastIndexOf(":") + 1);

/** Weather that warrants an alert, by `weatherType` (docs/rest.md "Weather and air quality"). */
const WEATHER_SEVERITY: Record<string, AlertSeverity | undefined> = {
  heavy_rain: "moderate",
  thunderstorm: "severe",
};
const SEVERITIES = new Set(["minor", "moderate", "severe", "critical"]);

/** The alert fact of an entity as it stands, or undefined (an accident, severe congestion, severe weather). */
export function alertFactOf(
  e: Entity,
  types: readonly string[],
  ctx: CompiledContext,
): AlertFact | undefined {
  const p = pointIn(valueByIri(e, ctx, `${NGSI}location`));
  if (!p) return undefined;
  const { lon, lat } = p;
  const when = (n: string) => String(valueByIri(e, ctx, T(n)) ?? e.modifiedAt ?? new Date().toISOString());
  if (types.includes(T("TrafficAccident"))) {
    const status = valueByIri(e, ctx, `${NGSI}status`) ?? valueByIri(e, ctx, T("status"));
    const severity = String(valueByIri(e, ctx, T("severity")));
    if (status === "resolved" || !SEVERITIES.has(severity)) return undefined;
    const vehicles = Number(valueByIri(e, ctx, T("vehiclesInvolved")) ?? 0);
    const injuries = Number(valueByIri(e, ctx, T("injuries")) ?? 0);
    return {
      id: `accident-${local(e.id)}`,
      type: "accident",
      severity: severity as AlertSeverity,
      lon,
      lat,
      source: e.id,
      timestamp: when("timestamp"),
      summary: `${vehicles} vehicle(s) involved, ${injuries} injured`,
    };
  }
  if (types.includes(T("TrafficFlowObserved"))) {
    if (valueByIri(e, ctx, T("congestionLevel")) !== "severe") return undefined;
    const speed = Number(valueByIri(e, ctx, T("averageVehicleSpeed")) ?? NaN);
    return {
      id: `congestion-${local(e.id)}`,
      type: "congestion",
      severity: "severe",
      lon,
      lat,
      source: e.id,
      timestamp: when("dateObserved"),
      summary: Number.isFinite(speed)
        ? `severe congestion, average speed ${speed.toFixed(0)} km/h`
        : "severe congestion",
    };
  }
  if (types.includes(T("WeatherObserved"))) {
    const kind = String(valueByIri(e, ctx, T("weatherType")));
    const severity = WEATHER_SEVERITY[kind];
    if (!severity) return undefined;
    return {
      id: `weather-${local(e.id)}`,
      type: "weather",
      severity,
      lon,
      lat,
      source: e.id,
      timestamp: when("dateObserved"),
      summary: kind.replace("_", " "),
    };
  }
  return undefined;
}

/** The message of an alert: "Severe accident near X, District 1: 2 vehicle(s) involved, 1 injured". */
export function alertMessage(f: AlertFact, address: string | undefined): string {
  const what = { accident: "accident", congestion: "congestion", weather: "weather" }[f.type];
  const sev = f.severity.charAt(0).toUpperCase() + f.severity.slice(1);
  return `${sev} ${what}${address ? ` ${address.startsWith("near") ? "" : "at "}${address}` : ""}: ${f.summary}`;
}
