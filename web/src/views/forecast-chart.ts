import type { ForecastItem } from "../api/forecast";
import { h } from "../ui/dom";

const SVG = "http://www.w3.org/2000/svg";
const W = 320;
const H = 160;
const PAD = { left: 34, right: 8, top: 20, bottom: 24 };

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * The forecast as a plain SVG line of predicted speed over the hours, points labelled with the predicted
 * congestion, and the same numbers as a table (for screen readers and for reading exact values).
 */
export function forecastChart(items: readonly ForecastItem[]): HTMLElement {
  if (items.length === 0) return h("p", {}, "No forecast for this zone.");
  const speeds = items.map((i) => i.predicted_speed);
  const max = Math.max(10, Math.ceil(Math.max(...speeds) / 10) * 10);
  const x = (i: number) => PAD.left + (i * (W - PAD.left - PAD.right)) / Math.max(1, items.length - 1);
  const y = (v: number) => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "forecast-chart", role: "img" });
  chart.setAttribute(
    "aria-label",
    `Predicted speed for the next ${items.length} hours, from ${speeds[0]} to ${speeds[speeds.length - 1]} km/h`,
  );
  for (const v of [0, max / 2, max]) {
    chart.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }));
    chart.append(svg("text", { x: PAD.left - 4, y: y(v) + 4, "text-anchor": "end" }, String(v)));
  }
  const step = Math.max(1, Math.ceil(items.length / 6));
  items.forEach((it, i) => {
    if (i % step !== 0) return;
    const hour = new Date(it.timestamp).getHours();
    chart.append(
      svg("text", { x: x(i), y: H - 6, "text-anchor": "middle" }, `${String(hour).padStart(2, "0")}h`),
    );
  });
  chart.append(
    svg("polyline", {
      points: items.map((it, i) => `${x(i)},${y(it.predicted_speed)}`).join(" "),
      class: "line",
    }),
  );
  items.forEach((it, i) => {
    const dot = svg("circle", {
      cx: x(i),
      cy: y(it.predicted_speed),
      r: 2.5,
      class: `dot level-${it.predicted_congestion}`,
    });
    dot.append(
      svg(
        "title",
        {},
        `${new Date(it.timestamp).toLocaleTimeString()}: ${it.predicted_speed} km/h, ${it.predicted_congestion}`,
      ),
    );
    chart.append(dot);
  });
  chart.append(svg("text", { x: 4, y: 10, class: "unit" }, "km/h"));
  const table = h(
    "table",
    {},
    h("caption", {}, "Forecast by hour"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Time"),
        h("th", { scope: "col" }, "Speed"),
        h("th", { scope: "col" }, "Congestion"),
        h("th", { scope: "col" }, "Confidence"),
      ),
    ),
    h(
      "tbody",
      {},
      items.map((it) =>
        h(
          "tr",
          {},
          h("td", {}, new Date(it.timestamp).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
          h("td", {}, `${it.predicted_speed} km/h`),
          h("td", {}, it.predicted_congestion),
          h("td", {}, `${Math.round(it.confidence * 100)} %`),
        ),
      ),
    ),
  );
  return h(
    "figure",
    { class: "forecast" },
    chart,
    h("details", {}, h("summary", {}, "Forecast as a table"), table),
  );
}
