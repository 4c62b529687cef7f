import { ConfigError } from "./config-error";

/**
 * Readers of one environment variable each: the value, or the default when the variable is unset or
 * empty; a ConfigError naming the variable and what it must be otherwise.
 */

/** One day in ms. */
export const DAY = 86_400_000;

/** A whole number in [min, max]; `def` when unset. */
export function intVar(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return def;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: DAY };

/** A duration such as `10s`, `500ms`, `2m`, `1h`, `30d`; a bare number is seconds. Returns ms. */
export function durationVar(
  env: NodeJS.ProcessEnv,
  name: string,
  defMs: number,
  minMs: number,
  maxMs: number,
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return defMs;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(raw);
  if (!m) throw new ConfigError(`${name} must be a duration such as 10s, 500ms, 2m or 1h, got "${raw}"`);
  const ms = Number(m[1]) * DURATION_UNITS_MS[m[2] ?? "s"];
  if (ms < minMs || ms > maxMs) {
    throw new ConfigError(`${name} must be between ${minMs} ms and ${maxMs} ms, got ${ms} ms ("${raw}")`);
  }
  return Math.round(ms);
}

/** One of `values` (case-insensitive); `def` when unset. */
export function oneOf<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  values: readonly T[],
  def: T,
): T {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return def;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${values.join(", ")}, got "${env[name]}"`);
  }
  return raw as T;
}

/** on/off (also true/false, 1/0, yes/no); `def` when unset. */
export function switchVar(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return def;
  if (["on", "true", "1", "yes"].includes(raw)) return true;
  if (["off", "false", "0", "no"].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

/** A URL with one of `protocols` (`redis:`, `https:`, ...); undefined when unset. */
export function urlVar(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(u.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(" or ")}, got "${u.protocol}"`);
  }
  return raw;
}
