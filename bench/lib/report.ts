import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The output of `npm run bench`: a table on stdout (scenario, figure, target, pass/fail) and the
 * whole run as JSON in bench/results/<timestamp>.json and bench/results/latest.json.
 */

/** One line of the table. */
export interface Row {
  scenario: string;
  figure: string;
  value: number | undefined;
  unit: string;
  /** Human-readable target, e.g. ">= 2500"; empty for an informational figure. */
  target: string;
  /** true/false against the target; undefined when there is no target or no value. */
  pass: boolean | undefined;
  /** Extra note, e.g. a flag for non-2xx answers. */
  note?: string;
}

/** Facts about the machine and runtime, recorded with every run. */
export function machineFacts(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model,
    memTotalBytes: os.totalmem(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    hostname: os.hostname(),
    /** 1/5/15-minute load averages when read: other work on the machine skews the figures. */
    loadavg: os.loadavg().map((x) => Number(x.toFixed(2))),
  };
}

/** A row with a lower-bound target (`value >= min`). */
export function atLeast(
  scenario: string,
  figure: string,
  value: number | undefined,
  unit: string,
  min: number,
  note?: string,
): Row {
  return {
    scenario,
    figure,
    value,
    unit,
    target: `>= ${fmt(min)}`,
    pass: value === undefined ? undefined : value >= min,
    note,
  };
}

/** A row with an upper-bound target (`value < max`). */
export function below(
  scenario: string,
  figure: string,
  value: number | undefined,
  unit: string,
  max: number,
  note?: string,
): Row {
  return {
    scenario,
    figure,
    value,
    unit,
    target: `< ${fmt(max)}`,
    pass: value === undefined ? undefined : value < max,
    note,
  };
}

/** An informational row. */
export function info(
  scenario: string,
  figure: string,
  value: number | undefined,
  unit: string,
  note?: string,
): Row {
  return { scenario, figure, value, unit, target: "", pass: undefined, note };
}

function fmt(v: number | undefined): string {
  if (v === undefined) return "n/a";
  if (Math.abs(v) >= 100) return Math.round(v).toLocaleString("en-US");
  if (Math.abs(v) >= 1) return v.toFixed(2);
  return v.toFixed(3);
}

/** The table as text (fixed-width columns). */
export function formatTable(rows: Row[]): string {
  const head = ["scenario", "figure", "value", "target", "result", "note"];
  const cells = rows.map((r) => [
    r.scenario,
    r.figure,
    `${fmt(r.value)} ${r.unit}`.trim(),
    r.target,
    r.pass === undefined ? "" : r.pass ? "PASS" : "FAIL",
    r.note ?? "",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]): string =>
    c
      .map((x, i) => x.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}

/** Writes the run as JSON (`<prefix><stamp>.json` and `<prefix>latest.json`); returns the timestamped path. */
export function writeResults(run: object, prefix = ""): string {
  const dir = path.resolve(__dirname, "..", "..", "..", "bench", "results");
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = path.join(dir, `${prefix}${stamp}.json`);
  const text = JSON.stringify(run, null, 2) + "\n";
  writeFileSync(file, text);
  writeFileSync(path.join(dir, `${prefix}latest.json`), text);
  return file;
}
