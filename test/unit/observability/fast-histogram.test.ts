import { expect } from "chai";
import { Registry } from "prom-client";
import { FastHistogram } from "../../../src/observability/fast-histogram";

describe("FastHistogram", () => {
  it("renders cumulative buckets, +Inf, sum and count per label combination in the text format", async () => {
    const registry = new Registry();
    const h = new FastHistogram("t_seconds", "a test", ["face"], [0.1, 1], registry);
    const a = h.series(["a"]);
    for (const v of [0.05, 0.1, 0.5, 3]) a.observe(v);
    h.series(["b"]).observe(2);
    expect(h.series(["a"])).to.equal(a); // one series per combination
    const text = await registry.metrics();
    expect(text).to.include("# TYPE t_seconds histogram");
    expect(text).to.include('t_seconds_bucket{face="a",le="0.1"} 2');
    expect(text).to.include('t_seconds_bucket{face="a",le="1"} 3');
    expect(text).to.include('t_seconds_bucket{face="a",le="+Inf"} 4');
    expect(text).to.include('t_seconds_sum{face="a"} 3.65');
    expect(text).to.include('t_seconds_count{face="a"} 4');
    expect(text).to.include('t_seconds_bucket{face="b",le="1"} 0');
    expect(text).to.include('t_seconds_count{face="b"} 1');
  });
});
