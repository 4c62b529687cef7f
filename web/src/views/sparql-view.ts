import { runSparql, toCsv, type SparqlTable } from "../api/sparql";
import { h, replaceChildren } from "../ui/dom";
import { SPARQL_EXAMPLES, exampleQuery } from "./sparql-examples";

/**
 * The SPARQL console: a query box with the README's examples, Run (or Ctrl+Enter) with progress and
 * Cancel, the answer as a paginated table and a CSV download of all its rows.
 */
export function sparqlView(): HTMLElement {
  const text = h("textarea", {
    id: "sparql-query",
    rows: 9,
    spellcheck: "false",
    "aria-describedby": "sparql-help",
  });
  text.value = exampleQuery(SPARQL_EXAMPLES[0].query);
  const examples = h(
    "select",
    {
      id: "sparql-example",
      onchange: () => {
        const ex = SPARQL_EXAMPLES[Number(examples.value)];
        if (ex) text.value = exampleQuery(ex.query);
      },
    },
    SPARQL_EXAMPLES.map((e, i) => h("option", { value: i }, e.label)),
  );
  const run = h("button", { type: "submit", id: "sparql-run" }, "Run query");
  const cancel = h("button", { type: "button", hidden: true }, "Cancel");
  const download = h("button", { type: "button", id: "sparql-csv", disabled: true }, "Download CSV");
  const summary = h("p", { class: "result-summary", role: "status", "aria-live": "polite" });
  const results = h("div", { class: "sparql-results" });
  let last: SparqlTable | undefined;
  let running: AbortController | undefined;

  const execute = async () => {
    running?.abort();
    const ctl = (running = new AbortController());
    run.disabled = true;
    cancel.hidden = false;
    download.disabled = true;
    summary.className = "result-summary busy";
    summary.textContent = "Running the query…";
    const started = performance.now();
    try {
      last = await runSparql(text.value, ctl.signal);
      const ms = Math.round(performance.now() - started);
      summary.className = "result-summary";
      summary.textContent = `${last.rows.length} rows in ${ms} ms${last.truncated ? " (cut at the service's row limit)" : ""}.`;
      replaceChildren(results, resultTable(last));
      download.disabled = false;
    } catch (e) {
      summary.className = "result-summary error";
      summary.textContent = `The query failed. ${(e as Error).message}`;
      replaceChildren(results);
    } finally {
      if (running === ctl) {
        run.disabled = false;
        cancel.hidden = true;
      }
    }
  };
  cancel.addEventListener("click", () => running?.abort());
  download.addEventListener("click", () => {
    if (!last) return;
    const url = URL.createObjectURL(new Blob([toCsv(last)], { type: "text/csv" }));
    const a = h("a", { href: url, download: "sparql-results.csv" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  text.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void execute();
    }
  });
  const form = h(
    "form",
    { class: "sparql-form", onsubmit: (e: Event) => (e.preventDefault(), void execute()) },
    h("label", { for: "sparql-example" }, "Example queries"),
    examples,
    h("label", { for: "sparql-query" }, "SPARQL query"),
    text,
    h(
      "p",
      { id: "sparql-help", class: "hint" },
      "Read-only SPARQL 1.1 over the whole graph. Ctrl+Enter runs the query.",
    ),
    h("div", { class: "actions" }, run, cancel, download),
  );
  return h(
    "section",
    { class: "view sparql-view", "aria-label": "SPARQL console" },
    h("h2", {}, "SPARQL console"),
    form,
    summary,
    results,
  );
}

function resultTable(t: SparqlTable): HTMLElement {
  const head = h(
    "tr",
    {},
    t.vars.map((v) => h("th", { scope: "col" }, v)),
  );
  // paginated like the lists: the pager picks the rows the body shows
  const body = h("tbody");
  const table = h("table", { class: "results" }, h("thead", {}, head), body);
  let page = 0;
  const size = 50;
  const pages = Math.max(1, Math.ceil(t.rows.length / size));
  const info = h("span", { class: "page-info" });
  const prev = h("button", { type: "button", onclick: () => show(page - 1) }, "‹ Previous");
  const next = h("button", { type: "button", onclick: () => show(page + 1) }, "Next ›");
  const show = (p: number) => {
    page = Math.min(Math.max(0, p), pages - 1);
    replaceChildren(
      body,
      t.rows.slice(page * size, (page + 1) * size).map((r) =>
        h(
          "tr",
          {},
          r.map((c) => h("td", {}, c)),
        ),
      ),
    );
    info.textContent = `Rows ${t.rows.length ? page * size + 1 : 0}-${Math.min(t.rows.length, (page + 1) * size)} of ${t.rows.length}`;
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
  };
  show(0);
  return h(
    "div",
    {},
    h("div", { class: "table-scroll" }, table),
    h("nav", { class: "pager", "aria-label": "Result pages" }, prev, info, next),
  );
}
