import { sparqlStringEnd } from "../sparql-lexing";

/**
 * The variables a SELECT query projects, in order (SPARQL 1.1 Query §18.2.4.1 projection; grammar
 * rule [9] SelectClause), read from the text so that results carry every projected variable in
 * `head.vars` even when no solution binds it. Returns undefined for `SELECT *` (the caller then uses
 * the variables of the solutions) and for text it cannot read.
 */
export function projectedVariables(query: string): string[] | undefined {
  const start = /\bSELECT\b/i.exec(query);
  if (!start) return undefined;
  const vars: string[] = [];
  let depth = 0;
  let i = start.index + start[0].length;
  while (i < query.length) {
    const c = query[i];
    if (c === "#") {
      const nl = query.indexOf("\n", i);
      i = nl < 0 ? query.length : nl + 1;
    } else if (c === '"' || c === "'") {
      i = sparqlStringEnd(query, i);
    } else if (c === "(") {
      depth++;
      i++;
    } else if (c === ")") {
      depth--;
      i++;
    } else if (c === "*" && depth === 0) {
      return undefined;
    } else if ((c === "?" || c === "$") && /[A-Za-z0-9_\u00C0-\uFFFF]/.test(query[i + 1] ?? "")) {
      const name = /^[?$]([A-Za-z0-9_\u00B7\u00C0-\uFFFF]+)/.exec(query.slice(i))![1];
      // depth 0: a projected variable; inside `( expr AS ?v )`: only the variable after AS.
      if (depth === 0 || /\bAS\s*$/i.test(query.slice(Math.max(0, i - 8), i))) vars.push(name);
      i += name.length + 1;
    } else if (depth === 0 && (c === "{" || /^(WHERE|FROM)\b/i.test(query.slice(i, i + 6)))) {
      break;
    } else {
      i++;
    }
  }
  return vars.length > 0 ? vars : undefined;
}
