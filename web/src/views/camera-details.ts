import { cameraTraffic, type Camera } from "../api/cameras";
import { h, formatTime, localId, replaceChildren } from "../ui/dom";
import { cameraIcon } from "./icons";

/**
 * A camera's popup: name, status in words, district, and the latest traffic it saw (vehicles, speed,
 * congestion), loaded when the popup opens; an error is shown in words in its place.
 */
export function cameraDetails(c: Camera): HTMLElement {
  const traffic = h("div", { class: "popup-traffic", "aria-live": "polite" }, "Loading the latest traffic…");
  const el = h(
    "div",
    { class: "popup camera-popup" },
    h("h3", {}, c.name),
    h(
      "dl",
      {},
      h("dt", {}, "Status"),
      h("dd", {}, cameraIcon(c.status), " ", c.status),
      h("dt", {}, "Camera"),
      h("dd", {}, c.code ? `${c.code} (id ${localId(c.id)})` : localId(c.id)),
      h("dt", {}, "District"),
      h("dd", {}, c.district ? localId(c.district) : "outside the districts"),
    ),
    traffic,
  );
  cameraTraffic(c.id).then(
    (t) =>
      replaceChildren(
        traffic,
        t
          ? h(
              "dl",
              {},
              h("dt", {}, "Observed"),
              h("dd", {}, formatTime(t.observedAt)),
              h("dt", {}, "Vehicles"),
              h("dd", {}, t.vehicles ?? "unknown"),
              h("dt", {}, "Average speed"),
              h("dd", {}, t.averageSpeed !== undefined ? `${t.averageSpeed} km/h` : "unknown"),
              h("dt", {}, "Congestion"),
              h("dd", {}, t.congestionLevel ?? "unknown"),
            )
          : "No traffic observed by this camera yet.",
      ),
    (e: Error) => replaceChildren(traffic, h("p", { class: "error" }, `Traffic not available. ${e.message}`)),
  );
  return el;
}
