import { termToNt, type ResultTerm, type Solution } from "./result-term";

/** A CSV field (RFC 4180 quoting, as SPARQL 1.1 Query Results CSV and TSV Formats §3.2 requires). */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV text of a term: IRIs and literals as their plain string, blank nodes as `_:label` (§3.2). */
function csvTerm(t: ResultTerm, escape: boolean): string {
  const text = t.termType === "BlankNode" ? `_:${t.value}` : t.value;
  return csvField(escape ? formulaSafe(text) : text);
}

/**
 * A cell a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return) prefixed with `'`, as OWASP's "CSV injection" advice has it; other cells unchanged.
 */
export function formulaSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * SELECT results as `text/csv` (SPARQL 1.1 Query Results CSV and TSV Formats §3): CRLF lines. With
 * `escape`, cells that would start a spreadsheet formula are prefixed with `'` ({@link formulaSafe}).
 */
export function solutionsToCsv(vars: readonly string[], rows: readonly Solution[], escape = false): string {
  const lines = [vars.map(csvField).join(",")];
  for (const row of rows) {
    lines.push(vars.map((v) => (row.has(v) ? csvTerm(row.get(v)!, escape) : "")).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/**
 * SELECT results as `text/tab-separated-values` (§4): terms in N-Triples/Turtle syntax, whose escapes
 * already keep tabs and line breaks out of literals (`\t` is escaped here too).
 */
export function solutionsToTsv(vars: readonly string[], rows: readonly Solution[]): string {
  const lines = [vars.map((v) => `?${v}`).join("\t")];
  for (const row of rows) {
    lines.push(vars.map((v) => (row.has(v) ? termToNt(row.get(v)!).replace(/\t/g, "\\t") : "")).join("\t"));
  }
  return lines.join("\n") + "\n";
}

/**
 * An ASK answer as CSV or TSV. The formats define no boolean form (§1); like Apache Jena, one column
 * `_askResult` holding `true` or `false`, so a data frame reader still gets a table.
 */
export function booleanToTable(value: boolean, tsv: boolean): string {
  return tsv ? `?_askResult\n${value}\n` : `_askResult\r\n${value}\r\n`;
}
