import type { Metric, Registry } from "prom-client";

/** One sample line as prom-client's registry renders it. */
interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** One label combination of a {@link FastHistogram}: counts its observations. */
export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  private readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }

  /** The cumulative count of each bucket bound, +Inf last. */
  cumulative(): number[] {
    let n = 0;
    return this.counts.map((c) => (n += c));
  }
}

/**
 * A Prometheus histogram for the request path: the caller keeps the {@link HistogramSeries} of a label
 * combination and an observation is a bucket search and three additions. prom-client's Histogram checks and
 * hashes the labels at every observation, a cost per request (docs/decisions/0015-metrics-cost.md); this one
 * is exposed through the same registry, in the same text format.
 */
export class FastHistogram {
  private readonly all = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  readonly type = "histogram";

  /** The series of these label values (in the order of the label names), made on first use. */
  series(values: readonly string[]): HistogramSeries {
    const key = values.join("\u0000");
    let s = this.all.get(key);
    if (!s) {
      const labels = Object.fromEntries(this.labelNames.map((n, i) => [n, values[i]]));
      this.all.set(key, (s = new HistogramSeries(labels, this.bounds)));
    }
    return s;
  }

  /** What the registry renders (prom-client's metric shape). */
  get(): { name: string; help: string; type: "histogram"; values: Sample[]; aggregator: "sum" } {
    const values: Sample[] = [];
    for (const s of this.all.values()) {
      const cumulative = s.cumulative();
      cumulative.forEach((n, i) => {
        const le = i < this.bounds.length ? this.bounds[i] : "+Inf";
        values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le }, value: n });
      });
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: "histogram", values, aggregator: "sum" };
  }

  reset(): void {
    this.all.clear();
  }
}
