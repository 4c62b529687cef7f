import type { Logger } from "../log/logger";

/** Events of the audit trail. */
export type AuditEvent =
  | "login"
  | "login-failed"
  | "refresh"
  | "refresh-reuse"
  | "logout"
  | "user-created"
  | "user-deleted"
  | "api-key-created"
  | "api-key-deleted"
  | "signing-key-rotated"
  | "access-denied"
  | "write";

/** Who and which request an audit line is about. */
export interface AuditFields {
  /** User or API key id of the actor, when known. */
  principal?: string;
  requestId?: string;
  [k: string]: unknown;
}

/** The audit trail: one JSON log line per event, `msg: "audit"`; never a password, token or key. */
export type Audit = (event: AuditEvent, fields: AuditFields) => void;

/** An audit trail writing to `log` at info. */
export function auditLog(log: Logger): Audit {
  return (event, fields) => log.info("audit", { event, ...fields });
}
