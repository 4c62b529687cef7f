import Yasgui from "@zazuko/yasgui";
import { session } from "../api/session";
import { SPARQL_EXAMPLES, exampleQuery } from "./sparql-examples";
import { shareLink } from "./sparql-share";

/** The name of the prefix completer that offers the service's own prefixes before the bundled ones. */
const PREFIX_COMPLETER = "citygraph-prefixes";

/**
 * Mounts YASGUI in `host`: the SPARQL editor (highlighting, syntax errors, prefix completion) and the
 * result viewer (sortable, paged table, CSV download), one tab per example query, every request to
 * this service's `/sparql` with the session's token. Nothing is kept in the browser's storage (queries
 * may belong to another user of the same browser) and nothing is fetched from other hosts. The token
 * reaches requests only: the share button gives {@link shareLink} and its cURL form names no token.
 */
export function mountSparqlConsole(host: HTMLElement, prefixes: Record<string, string>): Yasgui {
  registerPrefixCompleter(prefixes);
  keepTokenOutOfSharing();
  renderCellsAsText();
  const endpoint = new URL("/sparql", location.href).href;
  const yasgui = new Yasgui(host, {
    persistenceId: null,
    autoAddOnInit: false,
    populateFromUrl: false,
    copyEndpointOnNewTab: true,
    endpointCatalogueOptions: { getData: () => [{ endpoint }] },
    requestConfig: {
      endpoint,
      method: "POST",
      acceptHeaderSelect: "application/sparql-results+json",
      acceptHeaderGraph: "text/turtle",
      headers: (): Record<string, string> => {
        const token = session.token();
        return token ? { Authorization: `Bearer ${token}` } : {};
      },
    },
    yasqe: { autocompleters: [PREFIX_COMPLETER, "variables"], persistenceId: null },
    yasr: { persistenceId: null, prefixes },
  });
  for (const [i, ex] of SPARQL_EXAMPLES.entries()) {
    yasgui.addTab(i === 0, {
      name: ex.label,
      yasqe: { value: exampleQuery(ex.query) },
      requestConfig: { endpoint } as never,
    });
  }
  return yasgui;
}

/** Opens `query` (from a share link) in a new tab of the console, shown, not run. */
export function openSharedQuery(yasgui: Yasgui, query: string): void {
  const endpoint = new URL("/sparql", location.href).href;
  yasgui.addTab(true, {
    name: "Shared query",
    yasqe: { value: query },
    requestConfig: { endpoint } as never,
  });
}

/**
 * YASGUI builds its share link and cURL command from the tab's whole request configuration, headers
 * included, and so from the session's token. Its Tab and Yasqe classes are where both are made: the link
 * becomes the query's own link, and the cURL command asks for `$TOKEN` in place of the token.
 */
function keepTokenOutOfSharing(): void {
  Yasgui.Tab.prototype.getShareableLink = function (this: { getQuery(): string }): string {
    return shareLink(this.getQuery());
  };
  const curl = Yasgui.Yasqe.prototype.getAsCurlString;
  Yasgui.Yasqe.prototype.getAsCurlString = function (this: InstanceType<typeof Yasgui.Yasqe>, config) {
    return curl
      .call(this, config)
      .replace(/-H\s+'Authorization: [^']*'/gi, `-H "Authorization: Bearer $TOKEN"`);
  };
}

/** A fork of YASQE's prefix completer: the service's prefixes first, then the bundled list, no network. */
function registerPrefixCompleter(prefixes: Record<string, string>): void {
  const Yasqe = Yasgui.Yasqe;
  if (Yasqe.Autocompleters[PREFIX_COMPLETER]) return;
  const bundled = Yasqe.Autocompleters.prefixes!;
  const ours = Object.entries(prefixes).map(([p, iri]) => `${p}: <${iri}>`);
  Yasqe.forkAutocompleter(
    "prefixes",
    {
      ...bundled,
      name: PREFIX_COMPLETER,
      persistenceId: undefined,
      get: async (yasqe) => {
        const rest = await bundled.get(yasqe);
        return [...ours, ...rest.filter((line) => !(line.split(":")[0] in prefixes))];
      },
    },
    false,
  );
}

/** A result cell of YASR's table: a binding, or "" where the variable is unbound. */
type Cell = { type: string; value: string } | "";
type Column = { render?: (cell: Cell, kind?: string, ...rest: unknown[]) => unknown };

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * YASR's table hands DataTables a value's markup for searching and sorting (DataTables then parses it
 * as HTML in an element of the page, so a literal `<img onerror>` makes an image and an event handler).
 * Every form of a cell but its display is now the value as escaped text; the display is YASR's, which
 * escapes literals and builds the IRIs' links itself.
 */
function renderCellsAsText(): void {
  const table = Yasgui.Yasr.plugins.table as unknown as { prototype: { getColumns(): Column[] } };
  const columns = table.prototype.getColumns;
  table.prototype.getColumns = function (this: unknown): Column[] {
    return columns.call(this).map((c, i) => {
      const render = c.render;
      if (i === 0 || !render) return c;
      return {
        ...c,
        render: (cell: Cell, kind?: string, ...rest: unknown[]) =>
          kind === "display" || cell === "" ? render(cell, kind, ...rest) : escapeHtml(cell.value),
      };
    });
  };
}
