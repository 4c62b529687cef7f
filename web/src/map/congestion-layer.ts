import L from "leaflet";
import type { CongestionArea } from "../api/rest-a";
import { h } from "../ui/dom";
import { zoneFill } from "./zone-patterns";

/**
 * The congested areas of `GET /v1/traffic/congestion-zones` (clusters of slow cameras, as hulls) drawn
 * over the districts with a thick outline, filled by level (colour and hatching), the level in words
 * in their tooltip.
 */
export class CongestionLayer {
  readonly group = L.layerGroup();

  show(areas: readonly CongestionArea[]): void {
    this.group.clearLayers();
    for (const a of areas) {
      if (a.polygon.length < 3) continue;
      const p = L.polygon(a.polygon, {
        color: "#111",
        weight: 2.5,
        dashArray: "6 3",
        fillColor: zoneFill(a.level),
        fillOpacity: 0.7,
        className: "congestion-area",
      });
      // the area's name comes from the graph: a text node, never markup
      const text = `Congestion ${a.level} near ${a.name}${a.avg_speed !== undefined ? `, ${a.avg_speed} km/h` : ""}`;
      p.bindTooltip(h("span", {}, text), { sticky: true });
      p.on("add", () => p.getElement()?.setAttribute("data-level", a.level));
      this.group.addLayer(p);
    }
  }
}
