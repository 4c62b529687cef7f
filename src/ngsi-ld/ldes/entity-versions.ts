import type { Series } from "../temporal/series";
import type { TemporalIndex } from "../temporal/temporal-index";

/** The instances of one attribute in a version: rows of its series. */
export interface VersionAttribute {
  attr: string;
  series: Series;
  rows: number[];
}

/** One version of an entity: what one write changed, at its modifiedAt. */
export interface EntityVersion {
  entityId: string;
  /** modifiedAt of the version (epoch ms): the member's timestamp. */
  at: number;
  attrs: VersionAttribute[];
}

/** The window of a scan: modifiedAt in [from, to), instance time (observedAt, else modifiedAt) >= minTime. */
export interface VersionRange {
  from: number;
  to: number;
  minTime: number;
}

/**
 * The versions of the entities of `tenant` whose modifiedAt falls in the range, read from the temporal
 * history (every attribute instance a write created or changed, with the write's modifiedAt): one
 * version per entity and modifiedAt, holding the instances of that write, deletion instances left
 * out. Ordered by time, then entity id; attributes by IRI, instances by datasetId order of the series.
 * The same history gives the same versions, in the same order (also after a restart: the history log
 * keeps every column).
 */
export function versionsIn(index: TemporalIndex, tenant: string, r: VersionRange): EntityVersion[] {
  const out: EntityVersion[] = [];
  for (const e of index.entities(tenant)) {
    const byTime = new Map<number, Map<string, VersionAttribute>>();
    for (const attr of [...e.attrs.keys()].sort()) {
      const s = e.attrs.get(attr)!;
      for (let i = 0; i < s.length; i++) {
        const m = s.modified(i);
        if (m < r.from || m >= r.to || s.time(i) < r.minTime || index.isDeletion(s.rest(i))) continue;
        let attrs = byTime.get(m);
        if (!attrs) byTime.set(m, (attrs = new Map()));
        let a = attrs.get(attr);
        if (!a) attrs.set(attr, (a = { attr, series: s, rows: [] }));
        a.rows.push(i);
      }
    }
    for (const [at, attrs] of byTime) out.push({ entityId: e.id, at, attrs: [...attrs.values()] });
  }
  return out.sort((a, b) => a.at - b.at || (a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : 0));
}

/** The pages (starts by `pageOf`) that hold a version with modifiedAt >= from, each once, sorted. */
export function pagesWithVersions(
  index: TemporalIndex,
  tenant: string,
  from: number,
  pageOf: (t: number) => number,
  minTime: (page: number) => number,
): number[] {
  const pages = new Set<number>();
  for (const e of index.entities(tenant)) {
    for (const s of e.attrs.values()) {
      for (let i = 0; i < s.length; i++) {
        const m = s.modified(i);
        if (m < from) continue;
        const p = pageOf(m);
        if (!pages.has(p) && s.time(i) >= minTime(p) && !index.isDeletion(s.rest(i))) pages.add(p);
      }
    }
  }
  return [...pages].sort((a, b) => a - b);
}
