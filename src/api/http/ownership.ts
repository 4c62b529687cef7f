import type { Context } from "koa";
import { allows } from "../../auth/permissions";
import type { Principal } from "../../auth/principal";
import { AppError } from "../../errors";
import { requestOf } from "./request-context";

/**
 * Owners of what callers create (NGSI-LD subscriptions): admins see and change everyone's,
 * everyone else only their own (docs/auth.md "Subscriptions belong to their creator").
 */

function principalOf(ctx: Context): Principal {
  const p = requestOf(ctx).principal;
  // the auth gate sets one on every protected path (the anonymous admin when AUTH=off)
  if (!p) throw new AppError("Unauthorized", "No credential was checked for this request");
  return p;
}

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
