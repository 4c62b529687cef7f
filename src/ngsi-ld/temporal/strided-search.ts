/**
 * Binary search over row-major rows of `stride` numbers sorted by their first number (the layout of
 * `Series` and `RollupSeries`): the first row whose key is >= t, or > t with `after`.
 */
export function searchRows(
  d: readonly number[],
  rows: number,
  stride: number,
  t: number,
  after = false,
): number {
  let lo = 0;
  let hi = rows;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = d[mid * stride];
    if (k < t || (after && k === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
