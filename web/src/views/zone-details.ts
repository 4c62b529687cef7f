import { zoneForecast } from "../api/forecast";
import type { Zone } from "../api/zones";
import { h, replaceChildren } from "../ui/dom";
import { forecastChart } from "./forecast-chart";

/** A zone's panel: its current state and its 24 h forecast as a chart (loaded when it opens). */
export function zoneDetails(z: Zone): HTMLElement {
  const forecast = h("div", { class: "zone-forecast", "aria-live": "polite" }, "Loading the 24 h forecast…");
  zoneForecast(z.zoneId, 24).then(
    (items) => replaceChildren(forecast, forecastChart(items)),
    (e: Error) =>
      replaceChildren(forecast, h("p", { class: "error" }, `Forecast not available. ${e.message}`)),
  );
  return h(
    "section",
    { class: "zone-panel", "aria-label": `Zone ${z.name}` },
    h("h3", {}, z.name),
    h(
      "dl",
      {},
      h("dt", {}, "Congestion"),
      h("dd", {}, z.level ?? "no traffic data"),
      h("dt", {}, "Average speed"),
      h("dd", {}, z.avgSpeed !== undefined ? `${z.avgSpeed} km/h` : "unknown"),
      h("dt", {}, "Vehicles (latest interval)"),
      h("dd", {}, z.vehicleCount ?? "unknown"),
      h("dt", {}, "Cameras reporting"),
      h("dd", {}, z.cameras ?? 0),
    ),
    h("h4", {}, "Forecast, next 24 hours"),
    forecast,
  );
}
