import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type KeyObject,
} from "node:crypto";
import path from "node:path";
import { readIfExists, writePrivateFile } from "./private-file";

/** The signing algorithm of access tokens: Ed25519 (RFC 8037). */
export const SIGNING_ALG = "EdDSA";

/** One stored key pair. */
interface StoredKey {
  kid: string;
  /** Private JWK (OKP, Ed25519). */
  jwk: { kty: string; crv: string; x: string; d: string };
  createdAt: number;
  /** When a newer key took over (ms); the key still verifies until its last tokens expire. */
  retiredAt?: number;
}

/** A usable key. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  createdAt: number;
  retiredAt?: number;
  /** The public JWK as published in the JWKS. */
  publicJwk: Record<string, string>;
}

function toKey(s: StoredKey): SigningKey {
  const privateKey = createPrivateKey({ key: s.jwk, format: "jwk" });
  const { x, crv, kty } = s.jwk;
  return {
    kid: s.kid,
    privateKey,
    publicKey: createPublicKey(privateKey),
    createdAt: s.createdAt,
    retiredAt: s.retiredAt,
    publicJwk: { kty, crv, x, kid: s.kid, alg: SIGNING_ALG, use: "sig" },
  };
}

function newKey(now: number): StoredKey {
  const { privateKey } = generateKeyPairSync("ed25519");
  return { kid: randomUUID(), jwk: privateKey.export({ format: "jwk" }) as StoredKey["jwk"], createdAt: now };
}

/**
 * The token signing keys (docs/design.md "identity and tokens"): made on first start and kept in
 * `DATA_DIR/auth/signing-keys.json` (mode 0600). The newest key signs; {@link rotate} adds a new one and
 * keeps the old ones for verification until every token they signed has expired, so a rotation logs
 * nobody out.
 */
export class SigningKeys {
  private stored: StoredKey[];
  private keys: SigningKey[];

  private constructor(
    private readonly file: string,
    stored: StoredKey[],
    private readonly tokenTtlMs: number,
  ) {
    this.stored = stored;
    this.keys = stored.map(toKey);
  }

  /** Loads the keys of `dataDir`, making the first one if there is none, and rotates a key older than `maxAgeMs`. */
  static open(dataDir: string, tokenTtlMs: number, maxAgeMs: number, now = Date.now()): SigningKeys {
    const file = path.join(dataDir, "auth", "signing-keys.json");
    const text = readIfExists(file);
    const keys = new SigningKeys(
      file,
      text ? (JSON.parse(text) as { keys: StoredKey[] }).keys : [],
      tokenTtlMs,
    );
    if (keys.stored.length === 0 || now - keys.current.createdAt > maxAgeMs) keys.rotate(now);
    else keys.prune(now);
    return keys;
  }

  /** The key that signs new tokens. */
  get current(): SigningKey {
    return this.keys[this.keys.length - 1];
  }

  /** The key of `kid`, if it still verifies. */
  byKid(kid: string): SigningKey | undefined {
    return this.keys.find((k) => k.kid === kid);
  }

  /** The public JWKS (`/.well-known/jwks.json`). */
  jwks(): { keys: Record<string, string>[] } {
    return { keys: this.keys.map((k) => k.publicJwk) };
  }

  /** Makes a new current key; the previous ones keep verifying until their tokens expire. */
  rotate(now = Date.now()): SigningKey {
    for (const s of this.stored) s.retiredAt ??= now;
    this.stored.push(newKey(now));
    this.prune(now);
    return this.current;
  }

  /** Drops retired keys whose tokens have all expired, and saves. */
  private prune(now: number): void {
    this.stored = this.stored.filter((s) => s.retiredAt === undefined || now - s.retiredAt < this.tokenTtlMs);
    this.keys = this.stored.map(toKey);
    writePrivateFile(this.file, JSON.stringify({ keys: this.stored }, null, 1));
  }
}
