import L from "leaflet";
import type { GeoJsonObject } from "geojson";
import type { Zone } from "../api/zones";
import { h } from "../ui/dom";
import { zoneFill } from "./zone-patterns";

/** The zones (districts) as polygons filled by congestion level (colour and hatching), names as titles. */
export class ZoneLayer {
  readonly group = L.featureGroup();
  private readonly polygons = new Map<string, L.GeoJSON>();

  constructor(private readonly onSelect: (z: Zone) => void) {}

  /** Draws the zones' shapes (once; `restyle` follows their state). */
  show(zones: readonly Zone[]): void {
    this.group.clearLayers();
    this.polygons.clear();
    for (const z of zones) {
      const layer = L.geoJSON(z.geometry as GeoJsonObject, { style: () => this.style(z) });
      // names come from the graph: a text node, never markup
      layer.bindTooltip(
        () => h("span", {}, `${z.name}: ${z.level ? `congestion ${z.level}` : "no traffic data"}`),
        {
          sticky: true,
        },
      );
      layer.on("click", () => this.onSelect(z));
      layer.on("add", () =>
        layer.eachLayer((l) => (l as L.Path).getElement()?.setAttribute("data-zone-id", z.zoneId)),
      );
      this.polygons.set(z.id, layer);
      this.group.addLayer(layer);
    }
  }

  restyle(zones: readonly Zone[]): void {
    for (const z of zones) this.polygons.get(z.id)?.setStyle(this.style(z));
  }

  private style(z: Zone): L.PathOptions {
    return { color: "#3a3f47", weight: 1.2, opacity: 0.8, fillColor: zoneFill(z.level), fillOpacity: 0.45 };
  }
}
