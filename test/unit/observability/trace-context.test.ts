import { expect } from "chai";
import { outboundTraceparent, parseTraceparent, runInTrace } from "../../../src/observability/trace-context";

const ID = "4bf92f3577b34da6a3ce929d0e0e4736";

describe("trace context", () => {
  it("reads a W3C traceparent and refuses the invalid ones", () => {
    expect(parseTraceparent(`00-${ID}-00f067aa0ba902b7-01`)).to.deep.equal({
      traceId: ID,
      parentSpanId: "00f067aa0ba902b7",
      flags: "01",
    });
    // a later version may carry more fields
    expect(parseTraceparent(`01-${ID}-00f067aa0ba902b7-00-more`)?.flags).to.equal("00");
    for (const bad of [
      undefined,
      "",
      `00-${ID}-00f067aa0ba902b7-01-extra`,
      `ff-${ID}-00f067aa0ba902b7-01`,
      `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
      `00-${ID}-0000000000000000-01`,
      `00-${ID.toUpperCase()}-00f067aa0ba902b7-01`,
      "00-xyz-00f067aa0ba902b7-01",
    ])
      expect(parseTraceparent(bad), String(bad)).to.equal(undefined);
  });

  it("gives outbound requests the current span as their parent, and nothing outside a trace", async () => {
    expect(outboundTraceparent()).to.equal(undefined);
    const trace = { traceId: ID, spanId: "1111111111111111", flags: "01" };
    const seen = await runInTrace(trace, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return outboundTraceparent();
    });
    expect(seen).to.equal(`00-${ID}-1111111111111111-01`);
  });
});
