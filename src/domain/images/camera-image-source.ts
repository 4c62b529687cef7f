import type { CameraView } from "../traffic";

/** One camera frame as JPEG. */
export interface CameraFrame {
  jpeg: Buffer;
  /** When the frame was taken (or rendered for). */
  takenAt: number;
  /** "rendered" (made offline from the camera's data) or "snapshot" (fetched from the camera's source). */
  source: "rendered" | "snapshot";
}

/** Where camera frames come from (§4.2 latest-image; variant B's historical image too). */
export interface CameraImageSource {
  /** The latest frame of a camera. */
  latest(camera: CameraView): Promise<CameraFrame>;
  /** The frame nearest before `at`, if the source keeps past frames. */
  at?(camera: CameraView, at: number): Promise<CameraFrame | undefined>;
}
