import type { Entity } from "../model/entity";
import { attributeNames, instancesOf } from "../model/entity";
import { renderEntity } from "./render-entity";
import type { RenderOptions } from "./render-options";

/** How linked entities are returned (ETSI GS CIM 009 v1.8 §4.5.23 `join`). */
export type JoinMode = "inline" | "flat";

/** Reads entities by id (missing ones are skipped). */
export type EntityReader = (ids: string[]) => Promise<Entity[]>;

/** The ids a Relationship of `e` points to (single-object relationships, every instance). */
function linkedIds(e: Entity): string[] {
  const out: string[] = [];
  for (const name of attributeNames(e)) {
    for (const i of instancesOf(e, name))
      if (i.type === "Relationship" && typeof i.object === "string") out.push(i.object);
  }
  return out;
}

/**
 * Retrieval with linked entities (ETSI GS CIM 009 v1.8 §4.5.23, §5.7.1 `join`, `joinLevel`): `inline`
 * puts each linked entity inside its Relationship (as `entity`, or in place of the object for keyValues);
 * `flat` returns the root followed by every linked entity, or the root alone when nothing is linked.
 */
export async function renderJoined(
  root: Entity,
  mode: JoinMode,
  level: number,
  opts: RenderOptions,
  read: EntityReader,
): Promise<unknown> {
  if (mode === "flat") {
    const seen = new Map<string, Entity>([[root.id, root]]);
    let frontier = [root];
    for (let l = 0; l < level && frontier.length; l++) {
      const ids = [...new Set(frontier.flatMap(linkedIds))].filter((id) => !seen.has(id));
      frontier = await read(ids);
      for (const e of frontier) seen.set(e.id, e);
    }
    const all = [...seen.values()].map((e) => renderEntity(e, opts));
    return all.length === 1 ? all[0] : all;
  }
  return inline(root, level, opts, read);
}

async function inline(
  e: Entity,
  level: number,
  opts: RenderOptions,
  read: EntityReader,
): Promise<Record<string, unknown>> {
  const out = renderEntity(e, opts);
  if (level <= 0) return out;
  const linked = new Map((await read([...new Set(linkedIds(e))])).map((x) => [x.id, x]));
  for (const name of Object.keys(out)) {
    const stored = instancesOf(e, name);
    if (!stored.some((i) => i.type === "Relationship")) continue;
    const shown = Array.isArray(out[name]) ? (out[name] as unknown[]) : [out[name]];
    const joined = await Promise.all(
      shown.map(async (v, k) => {
        const target = linked.get(stored[k]?.object as string);
        if (!target || stored[k]?.type !== "Relationship") return v;
        const sub = await inline(target, level - 1, opts, read);
        return opts.format === "keyValues" ? sub : { ...(v as object), entity: sub };
      }),
    );
    out[name] = joined.length === 1 ? joined[0] : joined;
  }
  return out;
}
