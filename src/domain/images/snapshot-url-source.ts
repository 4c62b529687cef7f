import fs from "node:fs";
import path from "node:path";
import type { CameraView } from "../traffic";
import type { CameraFrame, CameraImageSource } from "./camera-image-source";

/** Options of {@link SnapshotUrlSource}. */
export interface SnapshotOptions {
  /** URL template: `{id}` is the camera id, `{image_url}` the camera's own imageURL (URL-encoded not). */
  template: string;
  /** Folder of the kept frames (`DATA_DIR/media/cameras`). */
  dir: string;
  /** Total bytes of kept frames; the oldest go first. */
  maxBytes: number;
  /** A fetched frame is reused for this long (ms). */
  refreshMs?: number;
  timeoutMs?: number;
  /** Used when the snapshot cannot be fetched. */
  fallback: CameraImageSource;
}

/**
 * Frames fetched from a snapshot URL per camera (the HCMC camera portal's image handler, for
 * example), kept on disk as `<dir>/<camera>/<epoch ms>.jpg` within a bounded total size, so past
 * frames answer variant B's historical image. A failed fetch falls back to the rendered frame.
 */
export class SnapshotUrlSource implements CameraImageSource {
  private bytes = 0;
  private readonly files: { file: string; size: number; t: number }[] = [];

  constructor(private readonly o: SnapshotOptions) {
    fs.mkdirSync(o.dir, { recursive: true });
    for (const cam of fs.readdirSync(o.dir)) {
      for (const f of fs.readdirSync(path.join(o.dir, cam))) {
        const file = path.join(o.dir, cam, f);
        const size = fs.statSync(file).size;
        this.files.push({ file, size, t: Number(f.replace(/\.jpg$/, "")) || 0 });
        this.bytes += size;
      }
    }
    this.files.sort((a, b) => a.t - b.t);
  }

  async latest(v: CameraView): Promise<CameraFrame> {
    const now = Date.now();
    const last = await this.at(v, now);
    if (last && now - last.takenAt < (this.o.refreshMs ?? 60_000)) return last;
    try {
      const url = this.o.template
        .replace("{id}", encodeURIComponent(v.camera.id))
        .replace("{image_url}", v.camera.imageUrl ?? "");
      const res = await fetch(url, { signal: AbortSignal.timeout(this.o.timeoutMs ?? 5000) });
      const type = res.headers.get("content-type") ?? "";
      if (!res.ok || !type.startsWith("image/")) throw new Error(`snapshot answered ${res.status} ${type}`);
      const jpeg = Buffer.from(await res.arrayBuffer());
      this.keep(v.camera.id, now, jpeg);
      return { jpeg, takenAt: now, source: "snapshot" };
    } catch {
      return last ?? this.o.fallback.latest(v);
    }
  }

  async at(v: CameraView, at: number): Promise<CameraFrame | undefined> {
    const dir = path.join(this.o.dir, safe(v.camera.id));
    let best = -1;
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const t = Number(f.replace(/\.jpg$/, ""));
      if (t <= at && t > best) best = t;
    }
    if (best < 0) return undefined;
    return {
      jpeg: await fs.promises.readFile(path.join(dir, `${best}.jpg`)),
      takenAt: best,
      source: "snapshot",
    };
  }

  private keep(id: string, t: number, jpeg: Buffer): void {
    const dir = path.join(this.o.dir, safe(id));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${t}.jpg`);
    fs.writeFileSync(file, jpeg);
    this.files.push({ file, size: jpeg.length, t });
    this.bytes += jpeg.length;
    while (this.bytes > this.o.maxBytes && this.files.length > 1) {
      const old = this.files.shift()!;
      fs.rmSync(old.file, { force: true });
      this.bytes -= old.size;
    }
  }
}

const safe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, "_");
