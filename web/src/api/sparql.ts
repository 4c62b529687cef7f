import { request } from "./http";

/** A SELECT answer as a table of strings (empty string for an unbound cell). */
export interface SparqlTable {
  vars: string[];
  rows: string[][];
  /** The service cut the answer at its row limit (header `X-SPARQL-MaxRows`). */
  truncated: boolean;
}

interface SparqlJson {
  head: { vars?: string[] };
  boolean?: boolean;
  results?: { bindings: Record<string, { value: string }>[] };
}

/** Runs a query at `/sparql` (interface spec §4.10) and answers its results as a table. */
export async function runSparql(query: string, signal?: AbortSignal): Promise<SparqlTable> {
  const res = await request("/sparql", {
    method: "POST",
    body: query,
    contentType: "application/sparql-query",
    accept: "application/sparql-results+json",
    signal,
  });
  const truncated = res.headers.has("X-SPARQL-MaxRows");
  const type = res.headers.get("Content-Type") ?? "";
  if (!type.includes("json")) {
    return { vars: ["result"], rows: [[await res.text()]], truncated };
  }
  const json = (await res.json()) as SparqlJson;
  if (json.boolean !== undefined) return { vars: ["answer"], rows: [[String(json.boolean)]], truncated };
  const vars = json.head.vars ?? [];
  const rows = (json.results?.bindings ?? []).map((b) => vars.map((v) => b[v]?.value ?? ""));
  return { vars, rows, truncated };
}

/** The table as CSV (RFC 4180: quotes doubled, fields with commas, quotes or line breaks quoted). */
export function toCsv(t: SparqlTable): string {
  // a cell a spreadsheet would run as a formula gets a leading ' (the file is for spreadsheets)
  const safe = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
  const cell = (raw: string) => {
    const s = safe(raw);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [t.vars, ...t.rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}
