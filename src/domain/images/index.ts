export type { CameraFrame, CameraImageSource } from "./camera-image-source";
export { RenderedFrameSource } from "./rendered-frame-source";
export { SnapshotUrlSource } from "./snapshot-url-source";
