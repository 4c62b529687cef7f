import type { CameraStatus } from "../api/cameras";
import type { Severity } from "../api/accidents";
import { CAMERA_SYMBOLS, SEVERITY_SYMBOLS } from "../map/symbols";
import { h } from "../ui/dom";

/** A camera's map symbol at text size (lists, popups). */
export function cameraIcon(status: CameraStatus): HTMLElement {
  return h(
    "span",
    { class: `cam-marker cam-${status} inline`, "aria-hidden": "true" },
    CAMERA_SYMBOLS[status].glyph,
  );
}

/** An accident's map symbol at text size (lists, popups). */
export function accidentIcon(severity: Severity): HTMLElement {
  return h(
    "span",
    { class: "acc-marker inline", "aria-hidden": "true" },
    h("span", { class: `diamond acc-${severity}` }, h("b", {}, SEVERITY_SYMBOLS[severity].glyph)),
  );
}
