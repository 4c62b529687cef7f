import type { Entity } from "../model/entity";
import { renderEntity } from "./render-entity";
import type { RenderOptions } from "./render-options";
import type { Projection } from "./projection";

function projectionKey(p: Projection | undefined): unknown {
  return p && [[...p.names], [...p.nested].map(([k, v]) => [k, projectionKey(v)])];
}

/** A key that is equal for equal render options (one per request; see RenderedEntityCache). */
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
 * The JSON text of {@link renderEntity}`(e, opts)` (ETSI GS CIM 009 v1.8 §4.5 representations) in UTF-8,
 * in a Buffer of its own (not a slice of Node's shared pool, so keeping it keeps nothing else alive).
 */
export function renderedJson(e: Entity, opts: RenderOptions): Buffer {
  const text = JSON.stringify(renderEntity(e, opts));
  const buf = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buf.write(text);
  return buf;
}
