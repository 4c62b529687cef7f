import path from "node:path";
import type { Config } from "../config/config";
import { RenderedFrameSource, SnapshotUrlSource, type CameraImageSource } from "../domain/images";

/**
 * The camera image source both REST variants share: frames rendered offline, or fetched from
 * `CAMERA_SNAPSHOT_URL` and kept in `DATA_DIR/media/cameras` (bounded by `CAMERA_SNAPSHOT_CACHE_BYTES`),
 * whose past frames answer variant B's historical image.
 */
export function cameraImages(config: Config): CameraImageSource {
  const rendered = new RenderedFrameSource();
  return config.images.cameraSnapshotUrl
    ? new SnapshotUrlSource({
        template: config.images.cameraSnapshotUrl,
        dir: path.join(config.store.dataDir, "media", "cameras"),
        maxBytes: config.images.cameraSnapshotCacheBytes,
        fallback: rendered,
      })
    : rendered;
}
