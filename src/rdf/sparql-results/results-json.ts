import { shownDatatype, type ResultTerm, type Solution } from "./result-term";

/** The JSON form of one term (SPARQL 1.1 Query Results JSON Format §3.2.2). */
function jsonTerm(t: ResultTerm): Record<string, string> {
  if (t.termType === "NamedNode") return { type: "uri", value: t.value };
  if (t.termType === "BlankNode") return { type: "bnode", value: t.value };
  const out: Record<string, string> = { type: "literal", value: t.value };
  if (t.language) out["xml:lang"] = t.language;
  const dt = shownDatatype(t);
  if (dt) out.datatype = dt;
  return out;
}

/** SELECT results as `application/sparql-results+json` (SPARQL 1.1 Query Results JSON Format §3). */
export function solutionsToJson(vars: readonly string[], rows: readonly Solution[]): string {
  const bindings = rows.map((row) => {
    const b: Record<string, Record<string, string>> = {};
    for (const [k, t] of row) b[k] = jsonTerm(t);
    return b;
  });
  return JSON.stringify({ head: { vars }, results: { bindings } });
}

/** An ASK answer as `application/sparql-results+json` (SPARQL 1.1 Query Results JSON Format §3.3). */
export function booleanToJson(value: boolean): string {
  return JSON.stringify({ head: {}, boolean: value });
}
