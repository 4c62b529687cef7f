import { booleanToTable, solutionsToCsv, solutionsToTsv } from "./results-csv-tsv";
import { booleanToJson, solutionsToJson } from "./results-json";
import { booleanToXml, solutionsToXml } from "./results-xml";
import type { ResultFormat } from "./media-types";
import type { Solution } from "./result-term";

/** SELECT solutions in a solution format (json, xml, csv, tsv). */
export function serializeSolutions(
  kind: ResultFormat["kind"],
  vars: readonly string[],
  rows: readonly Solution[],
): string {
  switch (kind) {
    case "xml":
      return solutionsToXml(vars, rows);
    case "csv":
    case "csv-escaped":
      return solutionsToCsv(vars, rows, kind === "csv-escaped");
    case "tsv":
      return solutionsToTsv(vars, rows);
    default:
      return solutionsToJson(vars, rows);
  }
}

/** An ASK answer in a solution format. */
export function serializeBoolean(kind: ResultFormat["kind"], value: boolean): string {
  switch (kind) {
    case "xml":
      return booleanToXml(value);
    case "csv":
    case "csv-escaped":
    case "tsv":
      return booleanToTable(value, kind === "tsv");
    default:
      return booleanToJson(value);
  }
}
