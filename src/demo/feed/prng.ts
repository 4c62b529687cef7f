/**
 * Deterministic randomness for the feed. Every random quantity is drawn from a mulberry32 stream
 * seeded by a hash of (feed seed, what it is for, whose it is, which time slot), so a value depends
 * only on those keys: the same seed and the same times always give the same output, whatever
 * happened before.
 */

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32-bit hash of a list of keys (FNV-1a over the text, then murmur3's finalizer). */
export function hashKeys(...keys: (string | number)[]): number {
  let h = 0x811c9dc5;
  const s = keys.join("\u0001");
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A PRNG stream for the given keys. */
export function rngFor(...keys: (string | number)[]): () => number {
  return mulberry32(hashKeys(...keys));
}

/** One uniform number in [0, 1) for the given keys. */
export function uniform(...keys: (string | number)[]): number {
  return rngFor(...keys)();
}

/** A standard normal deviate from a uniform stream (Box-Muller). */
export function gaussian(rng: () => number): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** A non-negative integer count with the given mean (Poisson, normal approximation above 30). */
export function poisson(rng: () => number, mean: number): number {
  if (mean <= 0) return 0;
  if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussian(rng)));
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng();
  while (p > limit) {
    k++;
    p *= rng();
  }
  return k;
}

/**
 * Smooth noise in [-1, 1] over time: random values at knots every `periodMs`, joined by cosine
 * interpolation. A pure function of (keys, t).
 */
export function smoothNoise(t: number, periodMs: number, ...keys: (string | number)[]): number {
  const x = t / periodMs;
  const i = Math.floor(x);
  const f = x - i;
  const a = uniform(...keys, i) * 2 - 1;
  const b = uniform(...keys, i + 1) * 2 - 1;
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return a * (1 - w) + b * w;
}
