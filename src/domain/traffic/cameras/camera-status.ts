import { DEFAULT_TENANT } from "../../../store/graph-store";
import type { AttributeService } from "../../../ngsi-ld/entities/attribute-service";
import type { CompiledContext } from "../../../rdf/contexts/compiled-context";
import type { CameraService, CameraView } from "./camera-service";
import type { CameraStatus } from "../models";

/**
 * Sets a camera's status (docs/graphql-and-websocket.md: "any camera state -> GraphQL mutation
 * updateCameraStatus or NGSI-LD PATCH of the status attribute -> the given status"): the same call
 * as `PATCH /ngsi-ld/v1/entities/{id}/attrs` with `{status}` (AttributeService.update), so both ways
 * are one code path. Resolves with the camera as it stands after the write; 404 for an unknown camera.
 */
export async function setCameraStatus(
  attributes: Pick<AttributeService, "update">,
  cameras: CameraService,
  traffic: CompiledContext,
  id: string,
  status: CameraStatus,
): Promise<CameraView> {
  const cam = cameras.get(id).camera;
  await attributes.update(
    DEFAULT_TENANT,
    cam.entityId,
    { id: cam.entityId, type: "TrafficCamera", status: { type: "Property", value: status } },
    traffic,
  );
  return cameras.get(cam.id);
}
