import L from "leaflet";
import type { ClientConfig } from "../config";

/** Ho Chi Minh City's centre and a zoom that shows the inner districts. */
const CITY_CENTRE: L.LatLngTuple = [10.78, 106.7];

/**
 * The Leaflet map: a tile layer when `MAP_TILES_URL` is configured, otherwise a plain background
 * (the district polygons draw the city), so the page needs no internet. Vectors use one SVG renderer.
 */
export function createBaseMap(el: HTMLElement, config: ClientConfig): L.Map {
  const map = L.map(el, {
    center: CITY_CENTRE,
    zoom: 11,
    minZoom: 9,
    maxZoom: 18,
    preferCanvas: false,
    keyboard: true,
    zoomSnap: 0.5,
  });
  map.attributionControl.setPrefix(false);
  if (config.tilesUrl) {
    L.tileLayer(config.tilesUrl, { attribution: config.tilesAttribution ?? "", maxZoom: 19 }).addTo(map);
  } else {
    el.classList.add("plain-map");
    map.attributionControl.addAttribution("Districts © OpenStreetMap contributors, ODbL");
  }
  el.setAttribute(
    "aria-label",
    "Map of the city: cameras, accidents and congestion zones. Arrow keys pan, + and - zoom.",
  );
  return map;
}
