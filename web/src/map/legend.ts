import L from "leaflet";
import { accidentIconHtml, CAMERA_SYMBOLS, SEVERITY_SYMBOLS } from "./symbols";
import type { Severity } from "../api/accidents";
import { LEVELS } from "../api/zones";
import { zoneFill } from "./zone-patterns";

/** The map's legend: every symbol with its word, so no state is told by colour alone. */
export function legendControl(): L.Control {
  const control = new L.Control({ position: "bottomleft" });
  control.onAdd = () => {
    const div = L.DomUtil.create("details", "legend");
    // open beside a large map, folded on a phone where it would cover the map
    if (!window.matchMedia("(max-width: 800px)").matches) div.setAttribute("open", "");
    const cams = Object.entries(CAMERA_SYMBOLS)
      .map(
        ([k, s]) =>
          `<li><span class="cam-marker cam-${k} inline"><span>${s.glyph}</span></span> ${s.label}</li>`,
      )
      .join("");
    const accs = Object.entries(SEVERITY_SYMBOLS)
      .map(
        ([k, s]) =>
          `<li><span class="acc-marker inline">${accidentIconHtml(k as Severity)}</span> ${s.label}</li>`,
      )
      .join("");
    const zones = LEVELS.map(
      (l) =>
        `<li><svg class="swatch" width="18" height="12" aria-hidden="true"><rect width="18" height="12" fill="${zoneFill(l)}" stroke="#3a3f47"/></svg> ${l}</li>`,
    ).join("");
    div.innerHTML = `<summary>Legend</summary><div class="legend-cols">
      <div><h3>Cameras</h3><ul>${cams}</ul></div>
      <div><h3>Accidents</h3><ul>${accs}</ul></div>
      <div><h3>Congestion</h3><ul>${zones}</ul></div></div>`;
    L.DomEvent.disableClickPropagation(div);
    return div;
  };
  return control;
}
