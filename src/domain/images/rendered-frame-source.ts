import sharp from "sharp";
import type { CameraView } from "../traffic";
import type { CameraFrame, CameraImageSource } from "./camera-image-source";

const W = 640;
const H = 360;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The SVG of a rendered frame: the camera's name, the time, its latest counts, marked as rendered. */
export function frameSvg(v: CameraView, at: number): string {
  const f = v.flow;
  const time = new Date(at).toISOString().replace("T", " ").slice(0, 19) + " UTC";
  const counts = f
    ? [
        `${f.intensity} vehicles in ${Math.max(1, Math.round((f.observedAt - f.from) / 60_000))} min`,
        `motorbikes ${f.vehicleTypes.motorcycle} · cars ${f.vehicleTypes.car} · buses ${f.vehicleTypes.bus} · trucks ${f.vehicleTypes.truck}`,
        `average speed ${f.averageSpeed.toFixed(1)} km/h · occupancy ${Math.round(f.occupancy * 100)} %`,
      ]
    : ["no observation yet"];
  // a road in perspective whose number of vehicle marks follows the latest count
  const marks: string[] = [];
  const n = Math.min(60, f ? Math.round(f.intensity / 10) : 0);
  for (let i = 0; i < n; i++) {
    const y = 170 + ((i * 37) % 180);
    const spread = 40 + (y - 150) * 1.2;
    const x = W / 2 + (((i * 53) % 100) / 100 - 0.5) * 2 * spread;
    marks.push(
      `<rect x="${x.toFixed(0)}" y="${y}" width="${6 + y / 40}" height="${4 + y / 60}" fill="#e9c46a"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<rect width="${W}" height="${H}" fill="#1d3557"/>
<polygon points="${W / 2 - 30},150 ${W / 2 + 30},150 ${W},${H} 0,${H}" fill="#444"/>
<line x1="${W / 2}" y1="150" x2="${W / 2}" y2="${H}" stroke="#ddd" stroke-width="3" stroke-dasharray="14 12"/>
${marks.join("")}
<rect x="0" y="0" width="${W}" height="118" fill="#000" fill-opacity="0.55"/>
<text x="12" y="26" font-family="DejaVu Sans, sans-serif" font-size="20" fill="#fff">${esc(v.camera.name.slice(0, 60))}</text>
<text x="12" y="50" font-family="DejaVu Sans Mono, monospace" font-size="15" fill="#ccc">${esc(time)} · camera ${esc(v.camera.id)} · ${v.status}</text>
${counts.map((c, i) => `<text x="12" y="${72 + i * 19}" font-family="DejaVu Sans, sans-serif" font-size="14" fill="#fff">${esc(c)}</text>`).join("\n")}
<text x="${W - 12}" y="${H - 12}" text-anchor="end" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#ff6b6b">RENDERED FRAME · NOT A CAMERA IMAGE</text>
</svg>`;
}

/**
 * The offline default image source: renders a JPEG frame for the camera from its data (name, time,
 * latest counts), clearly marked as rendered. Frames are cached per camera and observation.
 */
export class RenderedFrameSource implements CameraImageSource {
  private readonly cache = new Map<string, CameraFrame>();

  constructor(private readonly now: () => number = Date.now) {}

  async latest(v: CameraView): Promise<CameraFrame> {
    const at = v.flow?.observedAt ?? this.now();
    const key = `${v.camera.id}|${at}|${v.status}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const jpeg = await sharp(Buffer.from(frameSvg(v, at)))
      .jpeg({ quality: 78 })
      .toBuffer();
    const frame: CameraFrame = { jpeg, takenAt: at, source: "rendered" };
    if (this.cache.size >= 256) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, frame);
    return frame;
  }
}
