import type { Entity } from "../model/entity";
import { renderEntity } from "./render-entity";
import type { RenderOptions } from "./render-options";
import type { Projection } from "./projection";

const memo = new WeakMap<Entity, Map<string, string>>();

function projectionKey(p: Projection | undefined): unknown {
  return p && [[...p.names], [...p.nested].map(([k, v]) => [k, projectionKey(v)])];
}

/** A key that is equal for equal render options (one per request, then reused for every entity). */
export function renderOptionsKey(o: RenderOptions): string {
  return JSON.stringify([
    o.format,
    o.sysAttrs,
    o.attrs && [...o.attrs],
    projectionKey(o.pick),
    projectionKey(o.omit),
    o.lang,
    o.datasetIds && [...o.datasetIds],
  ]);
}

/**
 * The JSON text of {@link renderEntity}`(e, opts)` (ETSI GS CIM 009 v1.8 §4.5 representations),
 * remembered per entity object and options key: an entity the query path's view cache hands out again
 * is not rendered and serialized again. Only for entities that are never modified (the view cache's).
 */
export function renderedJson(e: Entity, opts: RenderOptions, key: string): string {
  let byKey = memo.get(e);
  if (!byKey) memo.set(e, (byKey = new Map()));
  let text = byKey.get(key);
  if (text === undefined) byKey.set(key, (text = JSON.stringify(renderEntity(e, opts))));
  return text;
}
