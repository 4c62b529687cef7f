import L from "leaflet";
import { listCameras, type Camera } from "../api/cameras";
import { listOpenAccidents, type Accident } from "../api/accidents";
import { listZoneShapes, zoneStates, type Zone } from "../api/zones";
import { LiveSocket, poll, type LiveMessage } from "../api/live";
import type { ClientConfig } from "../config";
import { createBaseMap } from "../map/base-map";
import { CameraLayer } from "../map/camera-layer";
import { AccidentLayer } from "../map/accident-layer";
import { ZoneLayer } from "../map/zone-layer";
import { CongestionLayer } from "../map/congestion-layer";
import { congestionZones } from "../api/rest-a";
import { legendControl } from "../map/legend";
import { installZonePatterns } from "../map/zone-patterns";
import { accidentIcon, cameraIcon } from "./icons";
import { h, formatTime, localId, replaceChildren } from "../ui/dom";
import type { StatusLine } from "../ui/status";
import { Tabs } from "../ui/tabs";
import { PagedList } from "./paged-list";
import { cameraDetails } from "./camera-details";
import { accidentDetails } from "./accident-details";
import { zoneDetails } from "./zone-details";

/** How often the open accidents are asked for while /ws is down: an accident shows within this. */
const ACCIDENTS_EVERY_MS = 1000;
/** How often they are asked for while /ws pushes their changes. */
const ACCIDENTS_BACKSTOP_MS = 15_000;
/** How often the zones' congestion is recomputed (the feed observes once a minute). */
const ZONES_EVERY_MS = 60_000;

/**
 * The live map: districts shaded by congestion, the cameras by status, the open accidents by severity;
 * beside it, paginated lists of each (the keyboard way to the map's objects) and a zone's panel.
 */
export class MapView {
  readonly el: HTMLElement;
  private map?: L.Map;
  private pin?: L.Marker;
  private readonly stops: (() => void)[] = [];
  private accidentsShown = false;
  private onPush: (m: LiveMessage) => void = () => undefined;
  private readonly liveState = h("p", { class: "live-state", role: "status" }, "Live updates: connecting…");
  private readonly live = new LiveSocket(
    (m) => this.onPush(m),
    (up) => {
      this.liveState.textContent = up
        ? "Live updates: pushed over WebSocket"
        : "Live updates: polling every second";
      this.liveState.dataset.connected = String(up);
    },
  );
  private zones: Zone[] = [];
  private readonly cameras: CameraLayer;
  private readonly accidents: AccidentLayer;
  private readonly zoneLayer: ZoneLayer;
  private readonly congestion = new CongestionLayer();
  private readonly cameraList: PagedList<Camera>;
  private readonly accidentList: PagedList<Accident>;
  private readonly zoneList: PagedList<Zone>;
  private readonly zonePanel = h("div", { class: "zone-details" });
  private readonly tabs: Tabs;
  private readonly mapEl = h("div", { class: "map", id: "map", tabindex: 0 });

  constructor(
    private readonly config: ClientConfig,
    private readonly status: StatusLine,
  ) {
    this.cameras = new CameraLayer((c, m) => this.openPopup(m, cameraDetails(c)));
    this.accidents = new AccidentLayer((a, m) => this.openPopup(m, accidentDetails(a)));
    this.zoneLayer = new ZoneLayer((z) => this.showZone(z));
    this.cameraList = new PagedList<Camera>({
      label: "Cameras",
      pageSize: 12,
      empty: "No cameras.",
      filter: (c, t) => c.name.toLowerCase().includes(t) || (c.code ?? "").toLowerCase().includes(t),
      render: (c) =>
        h(
          "button",
          { type: "button", class: "item", onclick: () => this.focusCamera(c) },
          cameraIcon(c.status),
          ` ${c.name} `,
          h("span", { class: "tag" }, c.status),
        ),
    });
    this.accidentList = new PagedList<Accident>({
      label: "Open accidents",
      pageSize: 10,
      empty: "No open accidents.",
      render: (a) =>
        h(
          "button",
          { type: "button", class: "item", "data-accident-id": a.id, onclick: () => this.focusAccident(a) },
          accidentIcon(a.severity),
          ` ${a.severity}, ${formatTime(a.timestamp)} `,
          h("span", { class: "tag" }, a.district ? localId(a.district) : a.status),
        ),
    });
    this.zoneList = new PagedList<Zone>({
      label: "Zones",
      pageSize: 11,
      empty: "No zones.",
      render: (z) =>
        h(
          "button",
          { type: "button", class: "item", onclick: () => this.showZone(z) },
          `${z.name} `,
          h("span", { class: `tag level-${z.level ?? "none"}` }, z.level ?? "no data"),
        ),
    });
    this.tabs = new Tabs("Map lists", [
      { id: "cameras", label: "Cameras", panel: this.cameraList.el },
      { id: "accidents", label: "Accidents", panel: this.accidentList.el },
      { id: "zones", label: "Zones", panel: h("div", {}, this.zoneList.el, this.zonePanel) },
    ]);
    this.el = h(
      "section",
      { class: "view map-view", "aria-label": "Live map" },
      this.mapEl,
      h("aside", { class: "side-panel", "aria-label": "Map lists" }, this.liveState, this.tabs.el),
    );
  }

  /** Builds the map (the element must be in the page) and starts loading and refreshing its data. */
  async start(): Promise<void> {
    installZonePatterns();
    const map = (this.map = createBaseMap(this.mapEl, this.config));
    this.zoneLayer.group.addTo(map);
    this.congestion.group.addTo(map);
    this.cameras.group.addTo(map);
    this.accidents.group.addTo(map);
    legendControl().addTo(map);
    // accidents load beside the cameras and the districts; then on every push of /ws, and by polling
    // every second while the socket is down (every 15 s while it is up, in case a push was missed)
    const accidents = poll(
      listOpenAccidents,
      (a) => this.showAccidents(a),
      (e) => this.status.error(`Accidents not updated. ${e.message}`),
      () => (this.live.connected() ? ACCIDENTS_BACKSTOP_MS : ACCIDENTS_EVERY_MS),
    );
    this.stops.push(accidents.stop);
    const done = this.status.progress("Loading cameras and districts…");
    try {
      const [cameras, zones] = await Promise.all([listCameras(), listZoneShapes()]);
      this.zones = zones;
      this.zoneLayer.show(zones);
      this.zoneList.set(zones);
      if (zones.length) map.fitBounds(this.zoneLayer.group.getBounds(), { padding: [8, 8] });
      this.cameras.show(cameras);
      this.cameraList.set([...cameras].sort((a, b) => a.name.localeCompare(b.name, "vi")));
      this.mapEl.dataset.cameras = String(cameras.length);
      performance.mark("citygraph:cameras-shown");
      done();
    } catch (e) {
      this.status.error(`The map could not load its data. ${(e as Error).message}`);
    }
    const states = poll(
      zoneStates,
      (s) => this.showZoneStates(s),
      (e) => this.status.error(`Zone states not updated. ${e.message}`),
      ZONES_EVERY_MS,
    );
    const areas = poll(
      congestionZones,
      (a) => this.congestion.show(a),
      (e) => this.status.error(`Congested areas not updated. ${e.message}`),
      ZONES_EVERY_MS,
    );
    this.stops.push(states.stop, areas.stop);
    // a zone's update comes per zone: many arrive together, one refresh follows them
    let zonesDue: ReturnType<typeof setTimeout> | undefined;
    this.onPush = (m) => {
      if (m.channel === "accidents") accidents.now();
      if (m.channel === "traffic" && !zonesDue) {
        zonesDue = setTimeout(() => {
          zonesDue = undefined;
          states.now();
          areas.now();
        }, 500);
      }
    };
    this.live.start();
    this.stops.push(() => this.live.stop());
  }

  /** Leaflet measures its element: call when the view is shown again. */
  shown(): void {
    this.map?.invalidateSize();
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
    this.map?.remove();
  }

  /** Centres the map on a point with a labelled marker (a report's place, from the review queue). */
  showPoint(lat: number, lon: number, label: string): void {
    if (!this.map) return;
    this.pin?.remove();
    this.pin = L.marker([lat, lon], {
      title: label,
      alt: label,
      icon: L.divIcon({
        className: "pin-marker",
        html: '<span aria-hidden="true">★</span>',
        iconSize: [22, 22],
      }),
    })
      .bindPopup(h("p", {}, label))
      .addTo(this.map);
    this.map.setView([lat, lon], 16);
    this.pin.openPopup();
  }

  private showAccidents(accidents: Accident[]): void {
    this.accidents.sync(accidents);
    if (!this.accidentsShown) performance.mark("citygraph:accidents-shown");
    this.accidentsShown = true;
    this.accidentList.set(accidents);
    this.tabs.setCount("accidents", accidents.length);
  }

  private showZoneStates(states: Awaited<ReturnType<typeof zoneStates>>): void {
    for (const z of this.zones) Object.assign(z, states.get(z.id) ?? {});
    this.zoneLayer.restyle(this.zones);
    this.zoneList.set(this.zones);
  }

  private openPopup(marker: L.Marker, content: HTMLElement): void {
    marker.unbindPopup();
    marker.bindPopup(content, { maxWidth: 320, autoPanPadding: [20, 20] }).openPopup();
    // the popup's close button takes the focus, so a keyboard user is inside it
    (
      marker.getPopup()?.getElement()?.querySelector(".leaflet-popup-close-button") as HTMLElement | null
    )?.focus();
  }

  private focusCamera(c: Camera): void {
    const m = this.cameras.marker(c.id);
    if (!m || !this.map) return;
    this.map.setView(m.getLatLng(), Math.max(this.map.getZoom(), 15));
    this.openPopup(m, cameraDetails(c));
  }

  private focusAccident(a: Accident): void {
    const m = this.accidents.marker(a.id);
    if (!m || !this.map) return;
    this.map.setView(m.getLatLng(), Math.max(this.map.getZoom(), 15));
    this.openPopup(m, accidentDetails(a));
  }

  private showZone(z: Zone): void {
    this.tabs.select("zones");
    replaceChildren(this.zonePanel, zoneDetails(z));
    this.zonePanel.querySelector("h3")?.setAttribute("tabindex", "-1");
    (this.zonePanel.querySelector("h3") as HTMLElement | null)?.focus();
  }
}
