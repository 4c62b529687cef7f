import L from "leaflet";
import type { Camera } from "../api/cameras";
import { CAMERA_SYMBOLS } from "./symbols";

/**
 * The cameras as small HTML markers: a shape and glyph per status (circle ●, square –, triangle !) in
 * its colour, the name and status as the marker's title. Markers are not tab stops (701 of them would
 * drown the keyboard user); the side panel's camera list is the keyboard way to them.
 */
export class CameraLayer {
  readonly group = L.layerGroup();
  private readonly markers = new Map<string, L.Marker>();

  constructor(private readonly onSelect: (c: Camera, marker: L.Marker) => void) {}

  show(cameras: readonly Camera[]): void {
    this.group.clearLayers();
    this.markers.clear();
    for (const c of cameras) {
      const s = CAMERA_SYMBOLS[c.status];
      const marker = L.marker([c.lat, c.lon], {
        icon: L.divIcon({
          className: `cam-marker cam-${c.status}`,
          html: `<span aria-hidden="true">${s.glyph}</span>`,
          iconSize: [16, 16],
        }),
        title: `Camera ${c.name}: ${s.label}`,
        alt: `Camera ${c.name}: ${s.label}`,
        keyboard: false,
        riseOnHover: true,
      });
      marker.on("click", () => this.onSelect(c, marker));
      marker.on("add", () => marker.getElement()?.setAttribute("data-camera-id", c.id));
      this.markers.set(c.id, marker);
      this.group.addLayer(marker);
    }
  }

  marker(id: string): L.Marker | undefined {
    return this.markers.get(id);
  }
}
