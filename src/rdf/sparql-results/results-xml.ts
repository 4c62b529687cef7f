import { shownDatatype, type ResultTerm, type Solution } from "./result-term";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Text escaped for XML content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => XML_ESCAPES[c]);
}

const HEAD = '<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n';

/** The XML form of one term (SPARQL Query Results XML Format §2.3.1). */
function xmlTerm(t: ResultTerm): string {
  if (t.termType === "NamedNode") return `<uri>${escapeXml(t.value)}</uri>`;
  if (t.termType === "BlankNode") return `<bnode>${escapeXml(t.value)}</bnode>`;
  const dt = shownDatatype(t);
  const attr = t.language ? ` xml:lang="${escapeXml(t.language)}"` : dt ? ` datatype="${escapeXml(dt)}"` : "";
  return `<literal${attr}>${escapeXml(t.value)}</literal>`;
}

/** SELECT results as `application/sparql-results+xml` (SPARQL Query Results XML Format, 2nd ed. §2). */
export function solutionsToXml(vars: readonly string[], rows: readonly Solution[]): string {
  const parts = [HEAD, " <head>\n"];
  for (const v of vars) parts.push(`  <variable name="${escapeXml(v)}"/>\n`);
  parts.push(" </head>\n <results>\n");
  for (const row of rows) {
    parts.push("  <result>");
    for (const [k, t] of row) parts.push(`<binding name="${escapeXml(k)}">${xmlTerm(t)}</binding>`);
    parts.push("</result>\n");
  }
  parts.push(" </results>\n</sparql>\n");
  return parts.join("");
}

/** An ASK answer as `application/sparql-results+xml` (SPARQL Query Results XML Format §2.4). */
export function booleanToXml(value: boolean): string {
  return `${HEAD} <head/>\n <boolean>${value}</boolean>\n</sparql>\n`;
}
