import type { Role, Tier } from "./principal";

/** A user as stored (docs/auth.md "Where credentials live"). */
export interface UserRecord {
  id: string;
  username: string;
  /** `scrypt$N$r$p$salt$key` (password-hash.ts). */
  passwordHash: string;
  role: Role;
  tier: Tier;
  /** Tenants the user may use; empty = all. */
  tenants: string[];
  createdAt: string;
}

/** An API key as stored: only its SHA-256 is kept; the key itself is shown once. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** SHA-256 of the key, base64url. */
  hash: string;
  role: Role;
  tier: Tier;
  tenants: string[];
  createdAt: string;
}

/** A family of rotating refresh tokens: one login and every token refreshed from it. */
export interface RefreshFamilyRecord {
  id: string;
  userId: string;
  /** SHA-256 of the one refresh token of the family that works now. */
  current: string;
  /** SHA-256 of the tokens it replaced: presenting one again is reuse, and revokes the family. */
  used: string[];
  /** ms since epoch; the family ends then. */
  expiresAt: number;
  /** Set when logged out or reuse was detected. */
  revokedAt?: number;
}

/** The kinds of records and their shapes. */
export interface CredentialKinds {
  user: UserRecord;
  "api-key": ApiKeyRecord;
  refresh: RefreshFamilyRecord;
}
/** One kind of record. */
export type CredentialKind = keyof CredentialKinds;
