import { AppError } from "../errors";
import type { Principal, Role } from "./principal";

/**
 * What a request may need (docs/auth.md "Roles and permissions"):
 * - `read`: reads on every face, SPARQL, GraphQL queries and subscriptions, WebSocket;
 * - `report`: submitting citizen reports;
 * - `own-alerts`: managing one's own alert subscriptions;
 * - `write`: every other write (NGSI-LD writes, camera and accident status, reviews);
 * - `admin`: users, API keys, purge, everyone's subscriptions, the whole notification queue.
 */
export const ACTIONS = ["read", "report", "own-alerts", "write", "admin"] as const;
/** One action. */
export type Action = (typeof ACTIONS)[number];

/** The actions of each role: viewer reads (and reports, and keeps its alerts), operator writes, admin administers. */
export const ROLE_ACTIONS: Record<Role, ReadonlySet<Action>> = {
  viewer: new Set<Action>(["read", "report", "own-alerts"]),
  operator: new Set<Action>(["read", "report", "own-alerts", "write"]),
  admin: new Set<Action>(ACTIONS),
};

/** True when `principal` may do `action`. */
export function allows(principal: Principal, action: Action): boolean {
  return ROLE_ACTIONS[principal.role].has(action);
}

/** Throws AccessDenied (403) unless `principal` may do `action`. */
export function checkPermission(principal: Principal, action: Action): void {
  if (!allows(principal, action)) {
    throw new AppError(
      "AccessDenied",
      `Role ${principal.role} may not ${action === "admin" ? "administer" : action}`,
      {
        required: action,
        role: principal.role,
      },
    );
  }
}
