import { badRequest } from "../../errors";
import type { Bucket } from "./rollup-series";

/** The aggregation functions of the aggregated temporal representation (ETSI GS CIM 009 v1.8 §4.5.19). */
export const AGGR_METHODS = [
  "totalCount",
  "distinctCount",
  "sum",
  "avg",
  "min",
  "max",
  "stddev",
  "sumsq",
] as const;
/** One aggregation function. */
export type AggrMethod = (typeof AGGR_METHODS)[number];

/** Parses `aggrMethods` (comma list); an unknown or missing method is a 400 BadRequestData naming it. */
export function parseAggrMethods(raw: string | undefined): AggrMethod[] {
  if (raw === undefined || raw.trim() === "") {
    throw badRequest(
      "options=aggregatedValues needs aggrMethods (totalCount, distinctCount, sum, avg, min, max, stddev, sumsq)",
      {
        parameter: "aggrMethods",
      },
    );
  }
  return raw.split(",").map((m) => {
    const t = m.trim();
    if (!(AGGR_METHODS as readonly string[]).includes(t)) {
      throw badRequest(
        `Unknown aggrMethods value ${JSON.stringify(t)}; allowed: ${AGGR_METHODS.join(", ")}`,
        {
          parameter: "aggrMethods",
          value: t,
        },
      );
    }
    return t as AggrMethod;
  });
}

/**
 * Running aggregate of one period. Numbers feed sum/avg/min/max/stddev/sumsq; every value (by a key:
 * the number, or the value's JSON) feeds totalCount and distinctCount.
 */
export class Accumulator {
  count = 0;
  numbers = 0;
  sum = 0;
  sumsq = 0;
  min = Infinity;
  max = -Infinity;
  private readonly distinct = new Set<number | string>();
  /** The largest distinct count of a merged aggregate (distinctCount over aggregates is a lower bound). */
  private distinctFloor = 0;

  /** Adds one value: `num` when numeric (else NaN) and `key` for distinctCount. */
  add(num: number, key: number | string): void {
    this.count++;
    this.distinct.add(key);
    if (Number.isNaN(num)) return;
    this.numbers++;
    this.sum += num;
    this.sumsq += num * num;
    if (num < this.min) this.min = num;
    if (num > this.max) this.max = num;
  }

  /** Adds an aggregate kept by retention (an hour or a day of instances folded into one bucket). */
  merge(b: Bucket): void {
    this.count += b.count;
    this.distinctFloor = Math.max(this.distinctFloor, b.distinct);
    if (b.numbers === 0) return;
    this.numbers += b.numbers;
    this.sum += b.sum;
    this.sumsq += b.sumsq;
    if (b.min < this.min) this.min = b.min;
    if (b.max > this.max) this.max = b.max;
  }

  /**
   * The value of `method`, or undefined when it has no meaning for the values seen (a numeric function
   * over no numbers). stddev is the population standard deviation.
   */
  value(method: AggrMethod): number | undefined {
    if (method === "totalCount") return this.count;
    if (method === "distinctCount") return Math.max(this.distinct.size, this.distinctFloor);
    if (this.numbers === 0) return undefined;
    switch (method) {
      case "sum":
        return this.sum;
      case "sumsq":
        return this.sumsq;
      case "avg":
        return this.sum / this.numbers;
      case "min":
        return this.min;
      case "max":
        return this.max;
      case "stddev": {
        const mean = this.sum / this.numbers;
        return Math.sqrt(Math.max(0, this.sumsq / this.numbers - mean * mean));
      }
    }
  }
}
