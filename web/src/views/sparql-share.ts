/**
 * The console's share links: `<page>#sparql?query=<the query>`, the query and nothing else (no endpoint,
 * no headers, so never the session's token). Whoever opens one logs in as themselves and finds the query
 * in a tab of their own console.
 */

/** The link that opens `query` in the console of this page. */
export function shareLink(query: string): string {
  const url = new URL(location.href);
  url.hash = `sparql?${new URLSearchParams({ query }).toString()}`;
  return url.href;
}

/** The view named by the address's hash (`#sparql?query=…` names `sparql`). */
export function hashRoute(): string {
  return location.hash.slice(1).split("?")[0];
}

/** The query a share link carries, taken out of the address (so that a reload does not add it again). */
export function takeSharedQuery(): string | undefined {
  const [route, params] = location.hash.slice(1).split(/\?(.*)/s);
  const query = new URLSearchParams(params ?? "").get("query") ?? undefined;
  if (query !== undefined) history.replaceState(null, "", `#${route}`);
  return query;
}
