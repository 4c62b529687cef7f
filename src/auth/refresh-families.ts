import { randomBytes, randomUUID } from "node:crypto";
import { sha256 } from "./access-tokens";
import type { RefreshFamilyRecord } from "./credential-records";
import type { CredentialRepository } from "./credential-repository";
import { unauthorized } from "./token-errors";

/** Hashes of replaced tokens a family remembers for reuse detection. */
const USED_KEPT = 100;
const TOKEN = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

/** The outcome of presenting a refresh token. */
export type RefreshOutcome = { family: RefreshFamilyRecord; token: string };

/**
 * Rotating refresh tokens (docs/auth.md "Logging in"): a token is `<family id>.<secret>`;
 * only its SHA-256 is stored. Each refresh replaces the family's token; presenting a replaced one again is
 * reuse (a stolen token), which revokes the whole family. Families live in the credential repository, so
 * they survive restarts; revoked and expired ones are dropped at start-up.
 */
export class RefreshFamilies {
  private readonly families = new Map<string, RefreshFamilyRecord>();

  constructor(
    private readonly repo: CredentialRepository,
    private readonly ttlMs: number,
  ) {}

  /** Fills the map from stored records, dropping the ones past their end. */
  async load(records: RefreshFamilyRecord[], now = Date.now()): Promise<void> {
    for (const f of records) {
      if (f.expiresAt <= now) await this.repo.remove("refresh", f.id);
      else this.families.set(f.id, f);
    }
  }

  /** Starts a family for a login; returns it with its first token. */
  async start(userId: string, now = Date.now()): Promise<RefreshOutcome> {
    const id = randomUUID();
    const token = `${id}.${randomBytes(32).toString("base64url")}`;
    const family: RefreshFamilyRecord = {
      id,
      userId,
      current: sha256(token),
      used: [],
      expiresAt: now + this.ttlMs,
    };
    this.families.set(id, family);
    await this.repo.put("refresh", family);
    return { family, token };
  }

  /** True when the family `id` was revoked (logout, reuse) or no longer exists. */
  isRevoked(id: string): boolean {
    const f = this.families.get(id);
    return !f || f.revokedAt !== undefined;
  }

  /** Exchanges a refresh token for the next one; 401 for an unknown, expired, revoked or reused token. */
  async rotate(token: string, now = Date.now()): Promise<RefreshOutcome> {
    const family = this.find(token, now);
    const h = sha256(token);
    if (family.current !== h) {
      if (family.used.includes(h)) {
        family.revokedAt = now;
        await this.repo.put("refresh", family);
        throw Object.assign(unauthorized("Refresh token reused: every token of its login is revoked"), {
          reusedFamily: family,
        });
      }
      throw unauthorized("Invalid refresh token");
    }
    const next = `${family.id}.${randomBytes(32).toString("base64url")}`;
    family.used = [...family.used.slice(-(USED_KEPT - 1)), h];
    family.current = sha256(next);
    await this.repo.put("refresh", family);
    return { family, token: next };
  }

  /** Revokes the family of `token` (logout); 401 when the token is not valid. */
  async revokeByToken(token: string, now = Date.now()): Promise<RefreshFamilyRecord> {
    const family = this.find(token, now);
    if (family.current !== sha256(token)) throw unauthorized("Invalid refresh token");
    return this.revoke(family.id, now) as Promise<RefreshFamilyRecord>;
  }

  /** Revokes a family by id (logout with an access token). */
  async revoke(id: string, now = Date.now()): Promise<RefreshFamilyRecord | undefined> {
    const family = this.families.get(id);
    if (!family || family.revokedAt !== undefined) return family;
    family.revokedAt = now;
    await this.repo.put("refresh", family);
    return family;
  }

  /** Revokes every family of a user (user deleted). */
  async revokeUser(userId: string, now = Date.now()): Promise<void> {
    for (const f of this.families.values()) if (f.userId === userId) await this.revoke(f.id, now);
  }

  private find(token: string, now: number): RefreshFamilyRecord {
    if (typeof token !== "string" || !TOKEN.test(token)) throw unauthorized("Malformed refresh token");
    const family = this.families.get(TOKEN.exec(token)![1]);
    if (!family) throw unauthorized("Invalid refresh token");
    if (family.revokedAt !== undefined) throw unauthorized("Refresh token revoked");
    if (family.expiresAt <= now) throw unauthorized("Refresh token expired");
    return family;
  }
}
