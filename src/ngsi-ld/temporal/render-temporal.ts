import type { CompiledContext } from "../../rdf/compiled-context";
import { Accumulator } from "./aggregate";
import { isoTime, rowToInstance, rowValue } from "./instance-codec";
import { paginate, selectRows, type PageRange, type Picked } from "./select-rows";
import type { Series } from "./series";
import type { TemporalEntity, TemporalIndex } from "./temporal-index";
import type { TemporalQuery } from "./temporal-query";

/** How a temporal entity is shown (ETSI GS CIM 009 v1.8 §4.5.9, §4.5.10 simplified, §4.5.19 aggregated). */
export interface TemporalView {
  representation: "normalized" | "temporalValues" | "aggregatedValues";
  sysAttrs: boolean;
  /** Attribute IRIs to show (`attrs`); undefined = all. */
  attrs?: ReadonlySet<string>;
  /** `datasetId` filter; "@none" names the default instances. */
  datasetIds?: ReadonlySet<string>;
  /** Largest number of instances per attribute in one answer (§6.3.10 temporal pagination). */
  pageLimit: number;
}

/** The member listing the values of each attribute kind in the simplified representation (§4.5.10). */
const VALUES_MEMBER: Record<string, string> = {
  Property: "values",
  GeoProperty: "values",
  Relationship: "objects",
  LanguageProperty: "languageMaps",
  VocabProperty: "vocabs",
  JsonProperty: "jsons",
  ListProperty: "valueLists",
  ListRelationship: "objectLists",
};

const iso = isoTime;

/** The instances of one entity a temporal query picked, per attribute, before rendering. */
export interface PickedEntity {
  entity: TemporalEntity;
  names: string[];
  series: Series[];
  picked: Picked[];
}

/** Picks the instances of `e` that the query and the view's `attrs` / `datasetId` select (§4.11). */
export function pickEntity(
  index: TemporalIndex,
  e: TemporalEntity,
  q: TemporalQuery,
  view: TemporalView,
): PickedEntity {
  const out: PickedEntity = { entity: e, names: [], series: [], picked: [] };
  for (const [attr, s] of e.attrs) {
    if (view.attrs && !view.attrs.has(attr)) continue;
    const ds = view.datasetIds;
    const inDs = ds ? (i: number) => ds.has(index.datasetId(s.rest(i)) ?? "@none") : undefined;
    const keep =
      q.timeproperty === "deletedAt"
        ? (i: number) => index.isDeletion(s.rest(i)) && (!inDs || inDs(i))
        : inDs;
    const p = selectRows(s, q, keep);
    if (p.idx.length === 0) continue;
    out.names.push(attr);
    out.series.push(s);
    out.picked.push(p);
  }
  return out;
}

/**
 * Temporal pagination over the picked instances of several entities at once (§6.3.10; one cut for the
 * whole answer). Aggregated answers are never cut.
 */
export function paginateEntities(
  list: PickedEntity[],
  q: TemporalQuery,
  view: TemporalView,
): PageRange | undefined {
  if (view.representation === "aggregatedValues") return undefined;
  return paginate(
    list.flatMap((p) => p.picked),
    q,
    view.pageLimit,
  );
}

/**
 * One entity's temporal evolution as the NGSI-LD API answers it, compacted with `ctx` (§4.5.9 normalized,
 * §4.5.10 temporalValues, §4.5.19 aggregatedValues). An attribute whose instances the page cut away is
 * shown empty; `attrCount` is how many attributes had instances in the window.
 */
export function renderPicked(
  index: TemporalIndex,
  pe: PickedEntity,
  q: TemporalQuery,
  view: TemporalView,
  ctx: CompiledContext,
): { body: Record<string, unknown>; attrCount: number } {
  const e = pe.entity;
  const types = e.types.map((t) => ctx.compactIri(t));
  const body: Record<string, unknown> = { id: e.id, type: types.length === 1 ? types[0] : types };
  if (e.scope !== undefined) body.scope = e.scope;
  if (view.sysAttrs) {
    body.createdAt = iso(e.createdAt);
    body.modifiedAt = iso(e.modifiedAt);
  }
  pe.names.forEach((attr, k) => {
    const s = pe.series[k];
    const p = pe.picked[k];
    const name = ctx.compactIri(attr);
    if (view.representation === "normalized") {
      body[name] = p.idx.map((i) => rowToInstance(index, s, i, ctx, view.sysAttrs));
      return;
    }
    if (p.idx.length === 0) {
      body[name] = view.representation === "temporalValues" ? { type: kindOf(index, s, 0), values: [] } : [];
      return;
    }
    const groups = byDataset(index, s, p);
    const shown = [...groups].map(([ds, g]) =>
      view.representation === "temporalValues"
        ? simplified(index, s, g, ds, ctx)
        : aggregated(index, s, g, ds, q),
    );
    body[name] = shown.length === 1 ? shown[0] : shown;
  });
  return { body, attrCount: pe.names.length };
}

/** One entity rendered alone (retrieval, §5.7.3), with the range when its instances were cut. */
export function renderTemporalEntity(
  index: TemporalIndex,
  e: TemporalEntity,
  q: TemporalQuery,
  view: TemporalView,
  ctx: CompiledContext,
): { body: Record<string, unknown>; range?: PageRange; attrCount: number } {
  const pe = pickEntity(index, e, q, view);
  const range = paginateEntities([pe], q, view);
  return { ...renderPicked(index, pe, q, view, ctx), range };
}

function byDataset(index: TemporalIndex, s: Series, p: Picked): Map<string | undefined, Picked> {
  const out = new Map<string | undefined, Picked>();
  p.idx.forEach((i, k) => {
    const ds = index.datasetId(s.rest(i));
    let g = out.get(ds);
    if (!g) out.set(ds, (g = { idx: [], times: [] }));
    g.idx.push(i);
    g.times.push(p.times[k]);
  });
  return out;
}

function kindOf(index: TemporalIndex, s: Series, i: number): string {
  return String(index.interner.object(s.rest(i)).type ?? "Property");
}

function simplified(
  index: TemporalIndex,
  s: Series,
  g: Picked,
  ds: string | undefined,
  ctx: CompiledContext,
): Record<string, unknown> {
  const type = kindOf(index, s, g.idx[0]);
  const out: Record<string, unknown> = { type };
  if (ds !== undefined) out.datasetId = ds;
  out[VALUES_MEMBER[type] ?? "values"] = g.idx.map((i, k) => [rowValue(index, s, i, ctx), iso(g.times[k])]);
  return out;
}

/**
 * The aggregated representation of one attribute's instances (§4.5.19): per period of `aggrPeriodDuration`
 * from the first instance (or from timeAt when the query has one), `[value, periodStart, periodEnd]` for
 * every method; periods without instances are left out; `PT0S` is one period over the whole range.
 */
function aggregated(
  index: TemporalIndex,
  s: Series,
  g: Picked,
  ds: string | undefined,
  q: TemporalQuery,
): Record<string, unknown> {
  const agg = q.aggregate as NonNullable<TemporalQuery["aggregate"]>;
  const out: Record<string, unknown> = { type: kindOf(index, s, g.idx[0]) };
  if (ds !== undefined) out.datasetId = ds;
  const lists = new Map(agg.methods.map((m) => [m, [] as unknown[]]));
  const origin = q.timerel === "after" || q.timerel === "between" ? (q.timeAt as number) : g.times[0];
  const last = q.timerel === "between" ? (q.endTimeAt as number) : g.times[g.times.length - 1] + 1;
  const period = agg.periodMs > 0 ? agg.periodMs : Math.max(1, last - origin);
  let k = 0;
  while (k < g.idx.length && g.times[k] < origin) k++;
  while (k < g.idx.length) {
    const p = Math.floor((g.times[k] - origin) / period);
    const start = origin + p * period;
    const end = start + period;
    const acc = new Accumulator();
    for (; k < g.idx.length && g.times[k] < end; k++) {
      const i = g.idx[k];
      const num = s.num(i);
      acc.add(
        num,
        Number.isNaN(num) ? JSON.stringify(index.interner.object(s.rest(i)).value ?? s.rest(i)) : num,
      );
    }
    for (const [m, list] of lists) {
      const v = acc.value(m);
      if (v !== undefined) list.push([v, iso(start), iso(end)]);
    }
  }
  for (const [m, list] of lists) out[m] = list;
  return out;
}
