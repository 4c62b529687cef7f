import type Yasgui from "@zazuko/yasgui";
import { h, replaceChildren } from "../ui/dom";
import { takeSharedQuery } from "./sparql-share";

/**
 * The SPARQL console view: YASGUI (editor, result table, CSV download, the example queries as tabs),
 * loaded the first time the view is shown so that the map's page load does not carry it.
 */
export class SparqlView {
  readonly el: HTMLElement;
  private readonly host = h(
    "div",
    { class: "sparql-console", "aria-busy": "true" },
    "Loading the SPARQL console…",
  );
  private loading: Promise<void> | undefined;
  private console: { yasgui: Yasgui; openShared(yasgui: Yasgui, query: string): void } | undefined;

  constructor(private readonly prefixes: Record<string, string>) {
    this.el = h(
      "section",
      { class: "view sparql-view", "aria-label": "SPARQL console" },
      h("h2", {}, "SPARQL console"),
      h(
        "p",
        { class: "hint" },
        "Read-only SPARQL 1.1 over the whole graph. Ctrl+Enter runs the query; each example is a tab.",
      ),
      this.host,
    );
  }

  /** Called when the view becomes visible: loads and mounts the console once, opens a shared query. */
  shown(): void {
    if (this.console) return this.openShared();
    this.loading ??= import("./sparql-console").then(
      ({ mountSparqlConsole, openSharedQuery }) => {
        replaceChildren(this.host);
        this.host.removeAttribute("aria-busy");
        const yasgui = mountSparqlConsole(this.host, this.prefixes);
        this.console = { yasgui, openShared: openSharedQuery };
        this.openShared();
      },
      () => {
        this.loading = undefined;
        this.host.removeAttribute("aria-busy");
        this.host.textContent =
          "The SPARQL console could not be loaded: check the network connection and try again.";
      },
    );
  }

  /** The query of a share link in the address, opened in a tab of its own. */
  private openShared(): void {
    const query = takeSharedQuery();
    if (query !== undefined && this.console) this.console.openShared(this.console.yasgui, query);
  }
}
