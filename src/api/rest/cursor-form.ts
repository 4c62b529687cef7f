import { CursorCodec, type KeyPart } from "./cursor-codec";
import { keysetPage, SortedList, type KeysetOrder } from "./keyset";

/** The cursor form's answer (docs/rest.md): `{data[], pagination{next_cursor, has_more, limit}}`. */
export interface CursorPageBody<R> {
  data: R[];
  pagination: { next_cursor: string | null; has_more: boolean; limit: number };
}

/** A cursor-form request: `cursor` as given ("" starts a walk) and `limit`. */
export interface CursorRequest {
  cursor: string;
  limit: number;
}

/**
 * One page of the cursor form over `items`: the cursor (checked against `scope`, see
 * {@link listScope}) gives the sort key to continue after; `next_cursor` carries the key of this
 * page's last item, null when nothing follows. `items` may come sorted already ({@link SortedList}).
 */
export function cursorPage<T, R>(
  codec: CursorCodec,
  scope: string,
  items: readonly T[] | SortedList<T>,
  order: KeysetOrder<T>,
  req: CursorRequest,
  map: (item: T) => R,
): CursorPageBody<R> {
  const after: KeyPart[] | undefined = req.cursor === "" ? undefined : codec.decode(req.cursor, scope).after;
  const page =
    items instanceof SortedList ? items.page(after, req.limit) : keysetPage(items, order, after, req.limit);
  const next = page.hasMore && page.last ? codec.encode({ scope, after: page.last }) : null;
  return {
    data: page.items.map(map),
    pagination: { next_cursor: next, has_more: page.hasMore, limit: req.limit },
  };
}
