import { expect } from "chai";
import type { Logger } from "../../../src/log/logger";
import { otlpExport } from "../../../src/observability/otlp-export";

/** A logger that keeps every line it is given, as the JSON the real one writes. */
function keptLog(lines: string[]): Logger {
  const log = (level: string, msg: string, fields?: object) =>
    lines.push(JSON.stringify({ level, msg, ...fields }));
  return {
    log,
    debug: (m, f) => log("debug", m, f),
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
  };
}

describe("otlpExport", () => {
  it("logs its endpoint without the user name and password the URL carries (docs/operations.md Traces)", async () => {
    const lines: string[] = [];
    const sink = await otlpExport("http://tracer:hunter2-secret@127.0.0.1:9/otlp", keptLog(lines));
    await sink.close();
    const on = lines.find((l) => l.includes("trace export on"));
    expect(on, lines.join("\n")).to.not.equal(undefined);
    expect(JSON.parse(on!)).to.include({ endpoint: "http://***@127.0.0.1:9/otlp" });
    expect(lines.join("\n")).to.not.include("hunter2-secret").and.not.include("tracer:");
  });
});
