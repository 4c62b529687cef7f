import { randomUUID } from "node:crypto";
import { AppError, notFound } from "../errors";
import { sha256 } from "./access-tokens";
import { newApiKey } from "./api-keys";
import type { ApiKeyRecord, UserRecord } from "./credential-records";
import type { CredentialRepository } from "./credential-repository";
import { hashPassword, type ScryptCost } from "./password-hash";
import type { Role, Tier } from "./principal";

/** What an admin gives to make a user. */
export interface NewUser {
  username: string;
  password: string;
  role: Role;
  tier: Tier;
  tenants: string[];
}

/** What an admin gives to make an API key. */
export interface NewApiKey {
  name: string;
  role: Role;
  tier: Tier;
  tenants: string[];
}

/**
 * Users and API keys: durable in the {@link CredentialRepository}, looked up in memory (by username, id,
 * or the SHA-256 of a key). A change resolves once it is on disk.
 */
export class UserDirectory {
  private readonly users = new Map<string, UserRecord>();
  private readonly byName = new Map<string, UserRecord>();
  private readonly keys = new Map<string, ApiKeyRecord>();
  private readonly keysByHash = new Map<string, ApiKeyRecord>();

  constructor(
    private readonly repo: CredentialRepository,
    private readonly cost?: ScryptCost,
  ) {}

  /** Fills the maps from stored records (start-up). */
  load(users: UserRecord[], keys: ApiKeyRecord[]): void {
    for (const u of users) this.index(u);
    for (const k of keys) this.indexKey(k);
  }

  get userCount(): number {
    return this.users.size;
  }

  user(id: string): UserRecord | undefined {
    return this.users.get(id);
  }

  userByName(username: string): UserRecord | undefined {
    return this.byName.get(username.toLowerCase());
  }

  listUsers(): UserRecord[] {
    return [...this.users.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Makes a user; 409 when the username is taken (case-insensitively). */
  async createUser(u: NewUser): Promise<UserRecord> {
    if (this.userByName(u.username)) throw new AppError("AlreadyExists", `User ${u.username} exists`);
    const rec: UserRecord = {
      id: randomUUID(),
      username: u.username,
      passwordHash: await hashPassword(u.password, this.cost),
      role: u.role,
      tier: u.tier,
      tenants: u.tenants,
      createdAt: new Date().toISOString(),
    };
    if (this.userByName(u.username)) throw new AppError("AlreadyExists", `User ${u.username} exists`);
    this.index(rec);
    await this.repo.put("user", rec);
    return rec;
  }

  /** Removes a user; 404 when unknown. */
  async deleteUser(id: string): Promise<UserRecord> {
    const u = this.users.get(id);
    if (!u) throw notFound(`No user ${id}`);
    this.users.delete(id);
    this.byName.delete(u.username.toLowerCase());
    await this.repo.remove("user", id);
    return u;
  }

  /** The API key record with id `id`, if issued and not revoked. */
  apiKey(id: string): ApiKeyRecord | undefined {
    return this.keys.get(id);
  }

  /** The API key record of `key`, if issued and not revoked. */
  apiKeyOf(key: string): ApiKeyRecord | undefined {
    return this.keysByHash.get(sha256(key));
  }

  /** Issues an API key: the record and the key, shown this once. */
  async createApiKey(k: NewApiKey): Promise<{ record: ApiKeyRecord; key: string }> {
    const key = newApiKey();
    const record: ApiKeyRecord = {
      id: randomUUID(),
      hash: sha256(key),
      createdAt: new Date().toISOString(),
      ...k,
    };
    this.indexKey(record);
    await this.repo.put("api-key", record);
    return { record, key };
  }

  /** Revokes an API key; 404 when unknown. */
  async deleteApiKey(id: string): Promise<ApiKeyRecord> {
    const k = this.keys.get(id);
    if (!k) throw notFound(`No API key ${id}`);
    this.keys.delete(id);
    this.keysByHash.delete(k.hash);
    await this.repo.remove("api-key", id);
    return k;
  }

  listApiKeys(): ApiKeyRecord[] {
    return [...this.keys.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  private index(u: UserRecord): void {
    this.users.set(u.id, u);
    this.byName.set(u.username.toLowerCase(), u);
  }

  private indexKey(k: ApiKeyRecord): void {
    this.keys.set(k.id, k);
    this.keysByHash.set(k.hash, k);
  }
}
