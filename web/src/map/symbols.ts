import type { CameraStatus } from "../api/cameras";
import type { Severity } from "../api/accidents";
import type { Level } from "../api/zones";

/**
 * How each state is drawn: a colour from colour-blind-safe palettes (Okabe-Ito, viridis) and, so that
 * colour is never the only cue, a shape or glyph and a word (legend, titles, lists).
 */
export const CAMERA_SYMBOLS: Record<CameraStatus, { glyph: string; label: string }> = {
  active: { glyph: "●", label: "active" },
  inactive: { glyph: "–", label: "inactive" },
  error: { glyph: "!", label: "error" },
};

/** Accidents show their severity's number, 1 (minor) to 4 (critical), inside a diamond. */
export const SEVERITY_SYMBOLS: Record<Severity, { glyph: string; label: string }> = {
  minor: { glyph: "1", label: "minor" },
  moderate: { glyph: "2", label: "moderate" },
  severe: { glyph: "3", label: "severe" },
  critical: { glyph: "4", label: "critical" },
};

/** Zones: a viridis colour and a hatching that gets denser with the level (SVG patterns of zone-patterns.ts). */
export const LEVEL_COLOURS: Record<Level, string> = {
  free: "#fde725",
  light: "#7ad151",
  moderate: "#22a884",
  heavy: "#2a788e",
  severe: "#414487",
};

/** The diamond of an accident marker (the marker itself is not rotated: Leaflet positions it by transform). */
export function accidentIconHtml(severity: Severity): string {
  return `<span class="diamond acc-${severity}" aria-hidden="true"><b>${SEVERITY_SYMBOLS[severity].glyph}</b></span>`;
}
