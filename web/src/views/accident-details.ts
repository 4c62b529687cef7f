import type { Accident } from "../api/accidents";
import { accidentTimeline } from "../api/rest-a";
import { h, formatTime, localId, replaceChildren } from "../ui/dom";
import { accidentIcon } from "./icons";

/** An accident's popup: severity, counts, camera, and its timeline (loaded when it opens). */
export function accidentDetails(a: Accident): HTMLElement {
  const timeline = h("div", { class: "timeline", "aria-live": "polite" }, "Loading the timeline…");
  const el = h(
    "div",
    { class: "popup accident-popup" },
    h("h3", {}, `Accident: ${a.severity}`),
    h(
      "dl",
      {},
      h("dt", {}, "Severity"),
      h("dd", {}, accidentIcon(a.severity), " ", a.severity),
      h("dt", {}, "Status"),
      h("dd", {}, a.status),
      h("dt", {}, "Time"),
      h("dd", {}, formatTime(a.timestamp)),
      h("dt", {}, "Vehicles / injuries / deaths"),
      h("dd", {}, `${a.vehiclesInvolved ?? "?"} / ${a.injuries ?? "?"} / ${a.fatalities ?? "?"}`),
      h("dt", {}, "Camera"),
      h("dd", {}, a.camera ? localId(a.camera) : "reported"),
    ),
    h("h4", {}, "Timeline"),
    timeline,
  );
  accidentTimeline(a.id).then(
    (events) =>
      replaceChildren(
        timeline,
        events.length
          ? h(
              "ol",
              {},
              events.map((e) =>
                h(
                  "li",
                  {},
                  h("time", { datetime: e.timestamp }, formatTime(e.timestamp)),
                  ` ${e.event}: ${e.description}`,
                ),
              ),
            )
          : "No events recorded.",
      ),
    (e: Error) =>
      replaceChildren(timeline, h("p", { class: "error" }, `Timeline not available. ${e.message}`)),
  );
  return el;
}
