import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** scrypt cost parameters. */
export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP Password Storage Cheat Sheet, scrypt: N=2^17, r=8, p=1, 128 MiB per hash (its time:
 * docs/decisions/0018-small-hot-path-costs.md). Node refuses more than 32 MiB by default, so `maxmem` is
 * raised to twice the need.
 */
export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, c: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password,
      salt,
      KEY_BYTES,
      { N: c.N, r: c.r, p: c.p, maxmem: 256 * c.N * c.r + 1024 * 1024 },
      (e, k) => (e ? reject(e) : resolve(k)),
    ),
  );
}

/** At most this many hashes run at once: each holds 128 MiB, so a login flood cannot exhaust memory. */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Hashes a password: `scrypt$N$r$p$salt$key` (salt and key base64url). */
export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await limited(() => derive(password, salt, cost));
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** True when `password` matches `stored`; compares in constant time. A malformed `stored` never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split("$");
  if (alg !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const got = await limited(() =>
    derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) }),
  );
  return got.length === expected.length && timingSafeEqual(got, expected);
}
