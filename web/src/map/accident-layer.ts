import L from "leaflet";
import type { Accident } from "../api/accidents";
import { accidentIconHtml, SEVERITY_SYMBOLS } from "./symbols";

/** A marker's content: what changes its look (severity, status). */
const look = (a: Accident) => `${a.severity}|${a.status}`;

/**
 * The open accidents as diamond markers numbered by severity (1 minor .. 4 critical). `sync` applies a
 * new list in place: new accidents appear, resolved ones go, changed ones are redrawn; the others stay
 * untouched, so an open popup survives the next refresh.
 */
export class AccidentLayer {
  readonly group = L.layerGroup();
  private readonly markers = new Map<string, { marker: L.Marker; look: string; accident: Accident }>();

  constructor(private readonly onSelect: (a: Accident, marker: L.Marker) => void) {}

  sync(accidents: readonly Accident[]): void {
    const seen = new Set<string>();
    for (const a of accidents) {
      seen.add(a.id);
      const had = this.markers.get(a.id);
      if (had && had.look === look(a)) {
        had.accident = a;
        continue;
      }
      if (had) this.group.removeLayer(had.marker);
      const entry = { marker: this.build(a), look: look(a), accident: a };
      entry.marker.on("click", () => this.onSelect(entry.accident, entry.marker));
      this.markers.set(a.id, entry);
      this.group.addLayer(entry.marker);
    }
    for (const [id, { marker }] of this.markers) {
      if (seen.has(id)) continue;
      this.group.removeLayer(marker);
      this.markers.delete(id);
    }
  }

  marker(id: string): L.Marker | undefined {
    return this.markers.get(id)?.marker;
  }

  private build(a: Accident): L.Marker {
    const s = SEVERITY_SYMBOLS[a.severity];
    const text = `Accident, ${s.label}, ${a.status}`;
    const m = L.marker([a.lat, a.lon], {
      icon: L.divIcon({
        className: `acc-marker acc-marker-${a.severity}`,
        html: accidentIconHtml(a.severity),
        iconSize: [22, 22],
      }),
      title: text,
      alt: text,
      keyboard: false,
      zIndexOffset: 1000,
    });
    m.on("add", () => m.getElement()?.setAttribute("data-accident-id", a.id));
    return m;
  }
}
