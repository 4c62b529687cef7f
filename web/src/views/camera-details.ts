import { cameraTraffic, type Camera } from "../api/cameras";
import { authorizedImage } from "../api/images";
import { cameraDetail, latestImagePath } from "../api/rest-a";
import { h, formatTime, localId, replaceChildren } from "../ui/dom";
import { cameraIcon } from "./icons";

/**
 * A camera's popup: name and status in words, its latest image and 24 h statistics (REST A), and the
 * latest traffic it saw (its flow observation), each loaded when the popup opens; a part that fails
 * says so in words in its place.
 */
export function cameraDetails(c: Camera): HTMLElement {
  const image = h("div", { class: "popup-image", "aria-live": "polite" }, "Loading the latest image…");
  const stats = h("div", { class: "popup-stats" }, "Loading statistics…");
  const traffic = h("div", { class: "popup-traffic" }, "Loading the latest traffic…");
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
    ),
    image,
    stats,
    traffic,
  );
  const fail = (part: HTMLElement, what: string) => (e: Error) =>
    replaceChildren(part, h("p", { class: "error" }, `${what} not available. ${e.message}`));
  authorizedImage(latestImagePath(c.id)).then(
    (src) =>
      replaceChildren(
        image,
        h("img", { src, alt: `Latest image of camera ${c.name}`, width: 240, height: 135 }),
      ),
    fail(image, "Image"),
  );
  cameraDetail(c.id).then(
    (d) =>
      replaceChildren(
        stats,
        h(
          "dl",
          {},
          h("dt", {}, "District"),
          h("dd", {}, d.district?.name ?? "outside the districts"),
          h("dt", {}, "Last update"),
          h("dd", {}, formatTime(d.last_update)),
          h("dt", {}, "Uptime, 24 h"),
          h("dd", {}, d.statistics ? `${d.statistics.uptime_24h} %` : "unknown"),
          h("dt", {}, "Detections today"),
          h("dd", {}, d.statistics?.detections_today ?? "unknown"),
          h("dt", {}, "Average vehicles"),
          h("dd", {}, d.statistics?.avg_vehicle_count ?? "unknown"),
        ),
      ),
    fail(stats, "Statistics"),
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
    fail(traffic, "Traffic"),
  );
  return el;
}
