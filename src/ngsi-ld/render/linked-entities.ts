import type { Entity } from "../model/entity";
import { attributeNames, instancesOf } from "../model/entity";
import { keepsMember, renderEntity } from "./render-entity";
import { linkedOptions } from "./render-options";
import type { RenderOptions } from "./render-options";

/** How linked entities are returned (ETSI GS CIM 009 v1.8 §4.5.23 `join`). */
export type JoinMode = "inline" | "flat";

/** Reads entities by id (missing ones are skipped). */
export type EntityReader = (ids: string[]) => Promise<Entity[]>;

/** The relationships of `e` that the projection keeps, with the ids each points to (every instance). */
function links(e: Entity, opts: RenderOptions): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const name of attributeNames(e)) {
    if (!keepsMember(opts, name) || (opts.attrs && !opts.attrs.has(name))) continue;
    const ids = instancesOf(e, name)
      .filter((i) => i.type === "Relationship" && typeof i.object === "string")
      .map((i) => i.object as string);
    if (ids.length) out.push([name, ids]);
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
  const all = await renderJoinedList([root], mode, level, opts, read);
  return mode === "inline" || all.length === 1 ? all[0] : all;
}

/**
 * Query with linked entities (§5.7.2 `join`, `joinLevel`): `inline` renders each root with its linked
 * entities inside; `flat` gives the roots followed by every linked entity reached, each once. Only
 * relationships the projection keeps are followed; linked entities get their relationship's nested
 * projection (`pick=id,locatedAt{name}`, §4.21), not the roots' one.
 */
export async function renderJoinedList(
  roots: Entity[],
  mode: JoinMode,
  level: number,
  opts: RenderOptions,
  read: EntityReader,
): Promise<Record<string, unknown>[]> {
  if (mode === "inline") return Promise.all(roots.map((e) => inline(e, level, opts, read)));
  const seen = new Map<string, Record<string, unknown>>();
  let frontier: [Entity, RenderOptions][] = roots.map((e) => [e, opts]);
  for (const [e] of frontier) seen.set(e.id, renderEntity(e, opts));
  for (let l = 0; l < level && frontier.length; l++) {
    const via = new Map<string, RenderOptions>();
    for (const [e, o] of frontier) {
      for (const [name, ids] of links(e, o)) {
        for (const id of ids) if (!seen.has(id) && !via.has(id)) via.set(id, linkedOptions(o, name));
      }
    }
    const next = await read([...via.keys()]);
    frontier = next.map((e) => [e, via.get(e.id) as RenderOptions]);
    for (const [e, o] of frontier) seen.set(e.id, renderEntity(e, o));
  }
  return [...seen.values()];
}

async function inline(
  e: Entity,
  level: number,
  opts: RenderOptions,
  read: EntityReader,
): Promise<Record<string, unknown>> {
  const out = renderEntity(e, opts);
  if (level <= 0) return out;
  const kept = links(e, opts);
  const linked = new Map((await read([...new Set(kept.flatMap(([, ids]) => ids))])).map((x) => [x.id, x]));
  for (const [name] of kept) {
    const stored = instancesOf(e, name);
    const sub = linkedOptions(opts, name);
    // keyValues of a multi-attribute is a `dataset` map (render-entity.ts), its values in instance order
    const map =
      opts.format === "keyValues"
        ? (out[name] as { dataset?: Record<string, unknown> } | null)?.dataset
        : undefined;
    const shown = map
      ? Object.values(map)
      : Array.isArray(out[name])
        ? (out[name] as unknown[])
        : [out[name]];
    const joined = await Promise.all(
      shown.map(async (v, k) => {
        const target = linked.get(stored[k]?.object as string);
        if (!target || stored[k]?.type !== "Relationship") return v;
        const inner = await inline(target, level - 1, sub, read);
        return opts.format === "keyValues" ? inner : { ...(v as object), entity: inner };
      }),
    );
    if (map) out[name] = { dataset: Object.fromEntries(Object.keys(map).map((k, i) => [k, joined[i]])) };
    else out[name] = joined.length === 1 ? joined[0] : joined;
  }
  return out;
}
