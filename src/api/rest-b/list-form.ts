import type { Context } from "koa";
import { AppError } from "../../errors";
import { listScope, type CursorCodec } from "../rest/cursor-codec";
import { cursorPage } from "../rest/cursor-form";
import { SortedList, type KeysetOrder } from "../rest/keyset";
import { pageInfo, pageLinkHeader } from "../rest/page-form";

/** How one B list is paged: its items in order, their keyset order and the filters a cursor is bound to. */
export interface ListSource<T, R> {
  /** Key of the items in the page form's body (`cameras`, `accidents`). */
  name: string;
  /** Every matching item, sorted in the list's keyset order (see {@link ListMemo}). */
  items: () => SortedList<T>;
  order: KeysetOrder<T>;
  /** Filters as parsed (a cursor only continues the same list with the same filters). */
  filters: Record<string, unknown>;
  map: (item: T) => R;
}

/**
 * Answers a B list in one of the two forms of docs/rest.md "The two pagination forms": the cursor form when
 * the request names `cursor` (empty for the first page), else the page form with `pagination{page,
 * limit, total, pages, next, prev}` and the same links in a `Link` header. `page` and `cursor`
 * together are a 400 INVALID_PARAMETER.
 */
export function listAnswer<T, R>(
  ctx: Context,
  codec: CursorCodec,
  q: Record<string, unknown>,
  src: ListSource<T, R>,
) {
  const limit = q.limit as number;
  const scope = listScope(ctx.path, src.filters);
  if (typeof ctx.query.cursor === "string" || Array.isArray(ctx.query.cursor)) {
    if (ctx.query.page !== undefined) {
      throw new AppError("BadRequestData", "page and cursor cannot be used together", {
        parameter: "cursor",
        value: q.cursor,
        expected: "either page (page form) or cursor (cursor form)",
      });
    }
    return cursorPage(
      codec,
      scope,
      src.items(),
      src.order,
      { cursor: String(q.cursor ?? ""), limit },
      src.map,
    );
  }
  const page = q.page as number;
  const all = src.items().items;
  const start = (page - 1) * limit;
  const info = pageInfo(all.length, { page, limit }, ctx.path, ctx.querystring);
  const link = pageLinkHeader(info);
  if (link) ctx.set("Link", link);
  return { [src.name]: all.slice(start, start + limit).map(src.map), pagination: info };
}

/**
 * Sorted lists kept between requests: a list is built once per key (the route puts the state's
 * version, the filters and a time bucket in it) and reused until the key changes. At most 64 lists.
 */
export class ListMemo<T> {
  private readonly lists = new Map<string, SortedList<T>>();

  constructor(private readonly order: KeysetOrder<T>) {}

  get(key: string, items: () => readonly T[]): SortedList<T> {
    let list = this.lists.get(key);
    if (!list) {
      if (this.lists.size >= 64) this.lists.clear();
      this.lists.set(key, (list = new SortedList(items(), this.order)));
    }
    return list;
  }
}
