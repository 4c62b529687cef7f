import { isGraphForm, type QueryForm } from "./query-form";

/** A result format of the SPARQL endpoint: its canonical media type and the names that select it. */
export interface ResultFormat {
  /** Content-Type of the answer. */
  mediaType: string;
  /** The serializer: solution formats for SELECT/ASK, RDF formats for CONSTRUCT/DESCRIBE. */
  kind: "json" | "xml" | "csv" | "csv-escaped" | "tsv" | "turtle" | "ntriples" | "jsonld";
  /** Media types in Accept that choose this format (with a parameter: `type;name=value`, lower case). */
  accepts: string[];
}

/**
 * Result formats for SELECT and ASK (SPARQL 1.1 Protocol §2.1.5 and the result format specs), the
 * first being the default.
 */
export const SOLUTION_FORMATS: readonly ResultFormat[] = [
  {
    mediaType: "application/sparql-results+json",
    kind: "json",
    accepts: ["application/sparql-results+json", "application/json"],
  },
  {
    mediaType: "application/sparql-results+xml",
    kind: "xml",
    accepts: ["application/sparql-results+xml", "application/xml", "text/xml"],
  },
  { mediaType: "text/csv", kind: "csv", accepts: ["text/csv"] },
  { mediaType: "text/tab-separated-values", kind: "tsv", accepts: ["text/tab-separated-values"] },
  // CSV for spreadsheets: a cell that would start a formula is prefixed with `'` (docs/sparql.md)
  { mediaType: "text/csv", kind: "csv-escaped", accepts: ["text/csv;escape=formulas"] },
];

/** RDF formats for CONSTRUCT and DESCRIBE (SPARQL 1.1 Protocol §2.1.6), the first being the default. */
export const GRAPH_FORMATS: readonly ResultFormat[] = [
  { mediaType: "text/turtle", kind: "turtle", accepts: ["text/turtle", "application/x-turtle"] },
  { mediaType: "application/n-triples", kind: "ntriples", accepts: ["application/n-triples", "text/plain"] },
  { mediaType: "application/ld+json", kind: "jsonld", accepts: ["application/ld+json", "application/json"] },
];

interface AcceptItem {
  type: string;
  /** The type with its parameters other than q (`text/csv;escape=formulas`). */
  full: string;
  q: number;
  order: number;
}

function parseAccept(header: string): AcceptItem[] {
  return header
    .split(",")
    .map((part, order) => {
      const [type, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
      const qp = params.find((p) => p.startsWith("q="));
      const q = qp ? Number(qp.slice(2)) : 1;
      const rest = params.filter((p) => !p.startsWith("q=")).map((p) => p.replace(/\s*=\s*/, "="));
      return { type, full: [type, ...rest].join(";"), q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((a) => a.type !== "" && a.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
}

function matches(range: string, f: ResultFormat): boolean {
  if (range === "*/*") return true;
  if (range.endsWith("/*")) return f.mediaType.startsWith(range.slice(0, -1)); // by the canonical type only
  return f.accepts.includes(range);
}

/**
 * The format to answer a query of `form` in, from the Accept header (RFC 9110 §12.5.1 with q-values;
 * no header = the default format). Undefined when nothing acceptable is offered (406).
 */
export function negotiateFormat(form: QueryForm, accept: string | undefined): ResultFormat | undefined {
  const formats = isGraphForm(form) ? GRAPH_FORMATS : SOLUTION_FORMATS;
  if (!accept || accept.trim() === "") return formats[0];
  for (const item of parseAccept(accept)) {
    // a format chosen by a parameter first (`text/csv;escape=formulas`), then by the type alone
    const f =
      (item.full !== item.type ? formats.find((x) => x.accepts.includes(item.full)) : undefined) ??
      formats.find((x) => matches(item.type, x));
    if (f) return f;
  }
  return undefined;
}
