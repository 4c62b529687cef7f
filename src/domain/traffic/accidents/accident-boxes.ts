import { DEFAULT_TENANT } from "../../../store/graph-store";
import type { Entity } from "../../../ngsi-ld/model/entity";
import { type EntitySource } from "../projection/projection-source";
import type { TrafficProjection } from "../projection/traffic-projection";

/** One box a detector drew on a frame, in pixels of that frame. */
export interface BoundingBox {
  x: number;
  y: number;
  width: number;
  height: number;
  label?: string;
}

/**
 * The boxes of an accident's detection (variant B's `detection.bounding_boxes`): the entity's
 * `boundingBoxes` property, an array of `{x, y, width, height, label?}`; [] when it has none (the
 * demo feed's detector reports none). Read from the graph on demand: only an accident's detail asks.
 */
export async function accidentBoundingBoxes(
  source: EntitySource,
  projection: TrafficProjection,
  entityId: string,
): Promise<BoundingBox[]> {
  const [e] = await source.read(DEFAULT_TENANT, [entityId], projection.traffic);
  const raw = (e as Entity | undefined)?.boundingBoxes as { value?: unknown } | undefined;
  const list = Array.isArray(raw?.value) ? raw.value : raw?.value ? [raw.value] : [];
  const boxes: BoundingBox[] = [];
  for (const b of list as Record<string, unknown>[]) {
    const [x, y, width, height] = [b?.x, b?.y, b?.width, b?.height].map(Number);
    if (![x, y, width, height].every(Number.isFinite)) continue;
    boxes.push({ x, y, width, height, ...(typeof b.label === "string" ? { label: b.label } : {}) });
  }
  return boxes;
}
