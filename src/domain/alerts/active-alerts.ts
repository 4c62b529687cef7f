import type { AlertMessage } from "../../jobs/senders/alert-job";
import type { CityPlaces } from "../city-places";
import { GraphAccess } from "../graph-access";
import { TRAFFIC_NS } from "../vocabulary";
import { alertFactOf, alertMessage } from "./alert-facts";
import { ALERT_SEVERITIES } from "./alert-severity";

/**
 * §4.7 GET /alerts/active, derived from the graph as it stands: every accident not resolved, every
 * camera whose latest flow is severely congested, every weather station reporting heavy rain or a
 * thunderstorm; most severe first, then newest.
 */
export async function activeAlerts(graph: GraphAccess, places: CityPlaces): Promise<AlertMessage[]> {
  const kinds = ["TrafficAccident", "TrafficFlowObserved", "WeatherObserved"];
  const out: AlertMessage[] = [];
  for (const kind of kinds) {
    for (const e of await graph.select({ type: kind })) {
      const f = alertFactOf(e, [TRAFFIC_NS + kind], graph.ctx);
      if (!f) continue;
      const address = await places.addressOf(f.lon, f.lat);
      out.push({
        id: f.id,
        type: f.type,
        severity: f.severity,
        location: { lat: f.lat, lon: f.lon, ...(address ? { address } : {}) },
        message: alertMessage(f, address),
        timestamp: f.timestamp,
      });
    }
  }
  const rank = (s: string) => ALERT_SEVERITIES.indexOf(s as never);
  return out.sort((a, b) => rank(b.severity) - rank(a.severity) || b.timestamp.localeCompare(a.timestamp));
}
