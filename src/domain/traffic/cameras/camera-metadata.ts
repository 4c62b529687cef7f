import sharp from "sharp";
import type { Camera } from "../models";

/** A camera's equipment facts as variant B shows them (§2 Camera `metadata`). */
export interface CameraMetadata {
  /** Pixel size of the camera's latest frame, "WxH"; "unknown" when none can be had. */
  resolution: string;
  /** Frames per second of the camera's stream (0 for a snapshot camera: less than one frame a second). */
  fps: number;
  manufacturer: string;
}

/** Capabilities of variant B (§2 Camera): what a client can get from the camera. */
export type CameraCapabilityB = "image" | "video" | "thermal";

/**
 * The HCMC portal's camera types (dataset field `cam_type`): `tth_axis` are Axis Communications
 * cameras; `tth` and `generic` do not name a maker.
 */
const MAKERS: Record<string, string> = { tth_axis: "Axis Communications" };

/**
 * Equipment facts of a camera: the maker from its type, the resolution of its latest frame, and 0 fps
 * because the city's cameras publish refreshed JPEG snapshots, not video.
 */
export function cameraMetadata(c: Camera, frameSize?: { width: number; height: number }): CameraMetadata {
  return {
    resolution: frameSize ? `${frameSize.width}x${frameSize.height}` : "unknown",
    fps: 0,
    manufacturer: (c.cameraType && MAKERS[c.cameraType]) || "unknown",
  };
}

/**
 * Variant B capabilities: every camera gives `image` (its snapshot, or a rendered frame); `video` and
 * `thermal` only when the camera's entity lists them (none of the city's cameras does: they publish
 * JPEG snapshots).
 */
export function cameraCapabilitiesB(c: Camera): CameraCapabilityB[] {
  const caps: CameraCapabilityB[] = ["image"];
  if (c.capabilities.includes("video")) caps.push("video");
  if (c.capabilities.includes("thermal")) caps.push("thermal");
  return caps;
}

/** Pixel size of a JPEG frame (its header only); undefined when it cannot be read. */
export async function frameSize(jpeg: Buffer): Promise<{ width: number; height: number } | undefined> {
  const m = await sharp(jpeg)
    .metadata()
    .catch(() => undefined);
  return m?.width && m.height ? { width: m.width, height: m.height } : undefined;
}
