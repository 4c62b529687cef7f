import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { Accumulator } from "./aggregate";
import { isoTime, rowToInstance, rowValue } from "./instance-codec";
import type { Bucket, RollupSeries } from "./rollup-series";
import { paginate, selectRows, type PageRange, type Picked } from "./select-rows";
import { Series } from "./series";
import type { TemporalEntity, TemporalIndex } from "./temporal-index";
import { inWindow, type TemporalQuery } from "./temporal-query";

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
  /** Per attribute, the aggregates kept by retention that the window holds (aggregated answers only). */
  buckets: Bucket[][];
}

/** The series of an attribute that has only aggregates left. */
const NO_ROWS = new Series();

/**
 * True if the query is answered from the retention aggregates too: aggregatedValues over observedAt (the
 * time the aggregates are bucketed by), without lastN.
 */
function usesAggregates(q: TemporalQuery, view: TemporalView): boolean {
  return (
    view.representation === "aggregatedValues" && q.timeproperty === "observedAt" && q.lastN === undefined
  );
}

/** Picks the instances of `e` that the query and the view's `attrs` / `datasetId` select (§4.11). */
export function pickEntity(
  index: TemporalIndex,
  e: TemporalEntity,
  q: TemporalQuery,
  view: TemporalView,
): PickedEntity {
  const out: PickedEntity = { entity: e, names: [], series: [], picked: [], buckets: [] };
  const rollups = usesAggregates(q, view) ? e.rollups : undefined;
  const names = rollups ? new Set([...e.attrs.keys(), ...rollups.keys()]) : e.attrs.keys();
  for (const attr of names) {
    if (view.attrs && !view.attrs.has(attr)) continue;
    const s = e.attrs.get(attr) ?? NO_ROWS;
    const ds = view.datasetIds;
    const inDs = ds ? (i: number) => ds.has(index.datasetId(s.rest(i)) ?? "@none") : undefined;
    const keep =
      q.timeproperty === "deletedAt"
        ? (i: number) => index.isDeletion(s.rest(i)) && (!inDs || inDs(i))
        : inDs;
    const p = selectRows(s, q, keep);
    const buckets = bucketsIn(index, rollups?.get(attr), q, ds);
    if (p.idx.length === 0 && buckets.length === 0) continue;
    out.names.push(attr);
    out.series.push(s);
    out.picked.push(p);
    out.buckets.push(buckets);
  }
  return out;
}

/** The buckets of `roll` that start inside the query's window, of the view's datasets. */
function bucketsIn(
  index: TemporalIndex,
  roll: RollupSeries | undefined,
  q: TemporalQuery,
  ds: ReadonlySet<string> | undefined,
): Bucket[] {
  const out: Bucket[] = [];
  for (let i = 0; roll && i < roll.length; i++) {
    if (!inWindow(q, roll.start(i))) continue;
    if (ds && !ds.has(index.datasetId(roll.tpl(i)) ?? "@none")) continue;
    out.push(roll.bucket(i));
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
    const bs = pe.buckets[k];
    if (p.idx.length === 0 && bs.length === 0) {
      body[name] = view.representation === "temporalValues" ? { type: kindOf(index, s, 0), values: [] } : [];
      return;
    }
    const groups = byDataset(index, s, p);
    if (view.representation !== "temporalValues") {
      for (const b of bs) {
        const ds = index.datasetId(b.tpl);
        if (!groups.has(ds)) groups.set(ds, { idx: [], times: [] });
      }
    }
    const shown = [...groups].map(([ds, g]) =>
      view.representation === "temporalValues"
        ? simplified(index, s, g, ds, ctx)
        : aggregated(
            index,
            s,
            g,
            bs.filter((b) => index.datasetId(b.tpl) === ds),
            ds,
            q,
          ),
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
 * every method; periods without instances are left out; `PT0S` is one period over the whole range. The
 * aggregates that retention kept (`buckets`) count in the period holding their start.
 */
function aggregated(
  index: TemporalIndex,
  s: Series,
  g: Picked,
  buckets: Bucket[],
  ds: string | undefined,
  q: TemporalQuery,
): Record<string, unknown> {
  const agg = q.aggregate as NonNullable<TemporalQuery["aggregate"]>;
  const type = g.idx.length ? kindOf(index, s, g.idx[0]) : String(index.interner.object(buckets[0].tpl).type);
  const out: Record<string, unknown> = { type };
  if (ds !== undefined) out.datasetId = ds;
  const lists = new Map(agg.methods.map((m) => [m, [] as unknown[]]));
  const first = Math.min(g.times[0] ?? Infinity, buckets[0]?.start ?? Infinity);
  const newest = Math.max(
    g.times[g.times.length - 1] ?? -Infinity,
    buckets[buckets.length - 1]?.start ?? -Infinity,
  );
  const origin = q.timerel === "after" || q.timerel === "between" ? (q.timeAt as number) : first;
  const last = q.timerel === "between" ? (q.endTimeAt as number) : newest + 1;
  const period = agg.periodMs > 0 ? agg.periodMs : Math.max(1, last - origin);
  const periods = new Map<number, Accumulator>();
  const acc = (t: number): Accumulator | undefined => {
    if (t < origin) return undefined;
    const p = Math.floor((t - origin) / period);
    let a = periods.get(p);
    if (!a) periods.set(p, (a = new Accumulator()));
    return a;
  };
  for (const b of buckets) acc(b.start)?.merge(b);
  g.idx.forEach((i, k) => {
    const num = s.num(i);
    acc(g.times[k])?.add(
      num,
      Number.isNaN(num) ? JSON.stringify(index.interner.object(s.rest(i)).value ?? s.rest(i)) : num,
    );
  });
  for (const p of [...periods.keys()].sort((a, b) => a - b)) {
    const a = periods.get(p) as Accumulator;
    const start = origin + p * period;
    for (const [m, list] of lists) {
      const v = a.value(m);
      if (v !== undefined) list.push([v, iso(start), iso(start + period)]);
    }
  }
  for (const [m, list] of lists) out[m] = list;
  return out;
}
