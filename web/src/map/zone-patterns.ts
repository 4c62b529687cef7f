import { LEVELS } from "../api/zones";
import { LEVEL_COLOURS } from "./symbols";

const SVG = "http://www.w3.org/2000/svg";
/** Hatch spacing per level (none for free flow): denser lines for worse congestion. */
const SPACING: Record<string, number> = { light: 10, moderate: 7, heavy: 5, severe: 3.5 };

/** The fill of a zone at `level`: a pattern id defined by {@link installZonePatterns}. */
export function zoneFill(level: string | undefined): string {
  return level ? `url(#zone-${level})` : "#d0d4da";
}

/**
 * Adds one hidden `<svg>` with a pattern per level (the level's colour under diagonal hatching); the
 * map's polygons refer to them by id, which works across the document's inline SVGs.
 */
export function installZonePatterns(doc: Document = document): void {
  if (doc.getElementById("zone-patterns")) return;
  const svg = doc.createElementNS(SVG, "svg");
  svg.id = "zone-patterns";
  svg.setAttribute("width", "0");
  svg.setAttribute("height", "0");
  svg.setAttribute("aria-hidden", "true");
  svg.style.position = "absolute";
  const defs = doc.createElementNS(SVG, "defs");
  for (const level of LEVELS) {
    const p = doc.createElementNS(SVG, "pattern");
    const s = SPACING[level] ?? 12;
    p.id = `zone-${level}`;
    p.setAttribute("patternUnits", "userSpaceOnUse");
    p.setAttribute("width", String(s));
    p.setAttribute("height", String(s));
    p.setAttribute("patternTransform", "rotate(45)");
    const bg = doc.createElementNS(SVG, "rect");
    bg.setAttribute("width", String(s));
    bg.setAttribute("height", String(s));
    bg.setAttribute("fill", LEVEL_COLOURS[level]);
    p.append(bg);
    if (SPACING[level]) {
      const line = doc.createElementNS(SVG, "line");
      line.setAttribute("x1", "0");
      line.setAttribute("y1", "0");
      line.setAttribute("x2", "0");
      line.setAttribute("y2", String(s));
      line.setAttribute("stroke", "#000");
      line.setAttribute("stroke-opacity", "0.35");
      line.setAttribute("stroke-width", "1.2");
      p.append(line);
    }
    defs.append(p);
  }
  svg.append(defs);
  doc.body.append(svg);
}
