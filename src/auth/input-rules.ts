import { AppError, badRequest } from "../errors";
import { ROLES, TIERS, type Role, type Tier } from "./principal";

/** Usernames: letters, digits and `._@-`, 1 to 64 characters (no spaces, no control characters). */
const USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;
/** Tenant names, as `NGSILD-Tenant` accepts them (api/http/tenant.ts). */
const TENANT = /^[A-Za-z0-9_\-.:/]{1,64}$/;
/** Longest password accepted (scrypt reads all of it). */
export const MAX_PASSWORD = 1024;

/** The body as an object; 400 InvalidRequest otherwise. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new AppError("InvalidRequest", "The body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/** A required string field; 400 InvalidRequest when missing, BadRequestData when not a string. */
export function stringField(o: Record<string, unknown>, name: string): string {
  const v = o[name];
  if (v === undefined || v === null)
    throw new AppError("InvalidRequest", `Field ${name} is required`, { parameter: name });
  if (typeof v !== "string")
    throw badRequest(`Field ${name} must be a string`, { parameter: name, expected: "string" });
  return v;
}

/** A valid username; 400 otherwise. */
export function username(o: Record<string, unknown>): string {
  const u = stringField(o, "username");
  if (!USERNAME.test(u)) {
    throw badRequest("username must be 1 to 64 letters, digits, '.', '_', '@' or '-'", {
      parameter: "username",
      expected: USERNAME.source,
    });
  }
  return u;
}

/** A password within bounds (`min` for new passwords, 1 at login). */
export function password(o: Record<string, unknown>, min = 1): string {
  const p = stringField(o, "password");
  if (p.length < min || p.length > MAX_PASSWORD) {
    throw badRequest(`password must be ${min} to ${MAX_PASSWORD} characters`, { parameter: "password" });
  }
  return p;
}

function oneOf<T extends string>(o: Record<string, unknown>, name: string, values: readonly T[], def: T): T {
  const v = o[name] ?? def;
  if (typeof v !== "string" || !(values as readonly string[]).includes(v)) {
    throw badRequest(`${name} must be one of ${values.join(", ")}`, {
      parameter: name,
      value: v,
      expected: values,
    });
  }
  return v as T;
}

/** `role` (default viewer). */
export const role = (o: Record<string, unknown>): Role => oneOf(o, "role", ROLES, "viewer");
/** `tier` (default basic). */
export const tier = (o: Record<string, unknown>): Tier => oneOf(o, "tier", TIERS, "basic");

/** `tenants`: a list of tenant names ("" = the default tenant); absent = all. */
export function tenants(o: Record<string, unknown>): string[] {
  const v = o.tenants ?? [];
  if (!Array.isArray(v) || v.some((t) => typeof t !== "string" || (t !== "" && !TENANT.test(t)))) {
    throw badRequest("tenants must be a list of tenant names", {
      parameter: "tenants",
      expected: TENANT.source,
    });
  }
  return [...new Set(v as string[])];
}

/** A key name: 1 to 100 printable characters. */
export function keyName(o: Record<string, unknown>): string {
  const n = stringField(o, "name");
  // eslint-disable-next-line no-control-regex
  if (n.length === 0 || n.length > 100 || /[\u0000-\u001f\u007f]/.test(n)) {
    throw badRequest("name must be 1 to 100 printable characters", { parameter: "name" });
  }
  return n;
}
