/** One hour in milliseconds. */
export const HOUR = 3_600_000;

/** `x` rounded to `digits` decimals, as a number. */
export const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** `x` held within [lo, hi]. */
export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
