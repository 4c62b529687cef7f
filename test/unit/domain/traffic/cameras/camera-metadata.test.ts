import { expect } from "chai";
import type { Camera } from "../../../../../src/domain/traffic";
import {
  cameraCapabilitiesB,
  cameraMetadata,
} from "../../../../../src/domain/traffic/cameras/camera-metadata";

describe("domain/traffic camera metadata of variant B", () => {
  it("names a camera's maker from its type and gives B capabilities", () => {
    const cam = { cameraType: "tth_axis", capabilities: ["vehicle_count", "thermal"] } as unknown as Camera;
    expect(cameraMetadata(cam, { width: 640, height: 360 })).to.deep.equal({
      resolution: "640x360",
      fps: 0,
      manufacturer: "Axis Communications",
    });
    expect(cameraMetadata({ ...cam, cameraType: "tth" })).to.include({
      resolution: "unknown",
      manufacturer: "unknown",
    });
    expect(cameraCapabilitiesB(cam)).to.deep.equal(["image", "thermal"]);
  });
});
