import type { Entity } from "../model/entity";
import { instancesOf } from "../model/entity";
import { renderEntity } from "./render-entity";
import type { RenderOptions } from "./render-options";

/**
 * GeoJSON representation of an entity (ETSI GS CIM 009 v1.8 §4.5.16): a Feature whose geometry is
 * the value of `geometryProperty` (default `location`) and whose properties are the entity's members.
 */
export function renderFeature(
  e: Entity,
  opts: RenderOptions,
  geometryProperty = "location",
): Record<string, unknown> {
  const body = renderEntity(e, opts);
  const geo = instancesOf(e, geometryProperty)[0];
  const { id, ...properties } = body;
  return {
    id,
    type: "Feature",
    geometry: geo && geo.type === "GeoProperty" ? geo.value : null,
    properties,
  };
}

/** A FeatureCollection of entities (§4.5.17). */
export function renderFeatureCollection(
  entities: Entity[],
  opts: RenderOptions,
  geometryProperty?: string,
): Record<string, unknown> {
  return {
    type: "FeatureCollection",
    features: entities.map((e) => renderFeature(e, opts, geometryProperty)),
  };
}
