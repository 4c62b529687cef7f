import { DEFAULT_TENANT } from "../../../store/graph-store";
import type { Series } from "../../../ngsi-ld/temporal/series";
import type { TemporalIndex } from "../../../ngsi-ld/temporal/temporal-index";
import type { CompiledContext } from "../../../rdf/contexts/compiled-context";

/** One numeric instance of an attribute's history. */
export interface Sample {
  t: number;
  v: number;
}

/**
 * Reads the temporal history (the NGSI-LD temporal service's columnar index) of the traffic
 * entities by traffic-context term: numeric samples by time range, and the raw instances of a
 * non-numeric attribute (an accident's status). No copy: each call walks the series' rows.
 */
export class HistoryReader {
  private readonly iris = new Map<string, string>();

  constructor(
    private readonly index: TemporalIndex,
    private readonly traffic: CompiledContext,
  ) {}

  /** The series of attribute `term` of entity `id`, or undefined. */
  series(id: string, term: string): Series | undefined {
    let iri = this.iris.get(term);
    if (!iri) this.iris.set(term, (iri = this.traffic.expandTerm(term)));
    return this.index.entity(DEFAULT_TENANT, id)?.attrs.get(iri);
  }

  /** Numeric samples of `term` with from <= t < to, in time order. */
  samples(id: string, term: string, from: number, to: number): Sample[] {
    const s = this.series(id, term);
    if (!s) return [];
    const out: Sample[] = [];
    for (let i = s.lowerBound(from); i < s.length && s.time(i) < to; i++) {
      const v = s.num(i);
      if (!Number.isNaN(v)) out.push({ t: s.time(i), v });
    }
    return out;
  }

  /**
   * The aggregates retention kept of `term` (hourly, then daily buckets of the instances that left the
   * raw window; default dataset only), in time order: start, length, numeric count, sum and max.
   */
  aggregates(
    id: string,
    term: string,
  ): { start: number; len: number; n: number; sum: number; max: number }[] {
    let iri = this.iris.get(term);
    if (!iri) this.iris.set(term, (iri = this.traffic.expandTerm(term)));
    const roll = this.index.entity(DEFAULT_TENANT, id)?.rollups?.get(iri);
    const out: { start: number; len: number; n: number; sum: number; max: number }[] = [];
    for (let i = 0; roll && i < roll.length; i++) {
      const b = roll.bucket(i);
      if (b.numbers > 0 && this.index.datasetId(b.tpl) === undefined) {
        out.push({ start: b.start, len: b.len, n: b.numbers, sum: b.sum, max: b.max });
      }
    }
    return out;
  }

  /** Calls `f` for each numeric sample of `term` with from <= t < to (no array built). */
  forEach(id: string, term: string, from: number, to: number, f: (t: number, v: number) => void): void {
    const s = this.series(id, term);
    if (!s) return;
    for (let i = s.lowerBound(from); i < s.length && s.time(i) < to; i++) {
      const v = s.num(i);
      if (!Number.isNaN(v)) f(s.time(i), v);
    }
  }

  /** Time of the latest instance of `term`, or undefined. */
  latest(id: string, term: string): number | undefined {
    const s = this.series(id, term);
    return s && s.length > 0 ? s.time(s.length - 1) : undefined;
  }

  /** Every instance of `term` (values of any kind) with its modifiedAt, in time order. */
  instances(id: string, term: string): { t: number; modified: number; value: unknown; deleted: boolean }[] {
    const s = this.series(id, term);
    if (!s) return [];
    const out = [];
    for (let i = 0; i < s.length; i++) {
      const tpl = this.index.interner.object(s.rest(i));
      const value = Number.isNaN(s.num(i)) ? tpl.value : s.num(i);
      out.push({ t: s.time(i), modified: s.modified(i), value, deleted: tpl.deletedAt === true });
    }
    return out;
  }
}
