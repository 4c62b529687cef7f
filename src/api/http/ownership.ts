import type { Context } from "koa";
import { allows } from "../../auth/permissions";
import { principalOf } from "./request-context";

/**
 * Owners of what callers create (NGSI-LD subscriptions): admins see and change everyone's,
 * everyone else only their own (docs/auth.md "Subscriptions belong to their creator").
 */

/** The owner to record for what the caller creates: its user or API key id; none with AUTH=off. */
export function ownerToRecord(ctx: Context): string | undefined {
  const p = principalOf(ctx);
  return p.kind === "anonymous" ? undefined : p.id;
}

/** Whose resources the caller sees: `undefined` = everyone's (admins, AUTH=off), else its own id. */
export function ownerScope(ctx: Context): string | undefined {
  const p = principalOf(ctx);
  return allows(p, "admin") ? undefined : p.id;
}
