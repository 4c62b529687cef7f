/** A page-form request (docs/rest.md "The two pagination forms"): `page` from 1 and `limit`. */
export interface PageRequest {
  page: number;
  limit: number;
}

/**
 * `pagination` of the page form: `{page, limit, total, pages}` as docs/rest.md names them, plus the
 * generic `next` and `prev` links (relative URLs with the same query; `prev` is null on the first page,
 * `next` null on the last).
 */
export interface PageInfo {
  page: number;
  limit: number;
  total: number;
  pages: number;
  next: string | null;
  prev: string | null;
}

/** `pagination` of page `req.page` of `total` items; past the last page, `prev` is the last page. */
export function pageInfo(total: number, req: PageRequest, path: string, search: string): PageInfo {
  const pages = Math.ceil(total / req.limit);
  const prevPage = req.page > 1 ? Math.min(req.page - 1, Math.max(pages, 1)) : undefined;
  return {
    page: req.page,
    limit: req.limit,
    total,
    pages,
    next: req.page < pages ? pageLink(path, search, req.page + 1) : null,
    prev: prevPage !== undefined ? pageLink(path, search, prevPage) : null,
  };
}

/** `path?search` with `page` set to `page` (other parameters kept in their order). */
export function pageLink(path: string, search: string, page: number): string {
  const q = new URLSearchParams(search);
  q.set("page", String(page));
  return `${path}?${q.toString()}`;
}

/** An RFC 8288 `Link` header value for the page links of `info` (undefined when there are none). */
export function pageLinkHeader(info: PageInfo): string | undefined {
  const links: string[] = [];
  if (info.next) links.push(`<${info.next}>; rel="next"`);
  if (info.prev) links.push(`<${info.prev}>; rel="prev"`);
  return links.length > 0 ? links.join(", ") : undefined;
}
