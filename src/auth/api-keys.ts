import { randomBytes } from "node:crypto";
import { unauthorized } from "./token-errors";

/** API keys are `cgk_` and 43 base64url characters (32 random bytes): 47 characters. */
export const API_KEY_PREFIX = "cgk_";
export const API_KEY_LENGTH = API_KEY_PREFIX.length + 43;
const API_KEY = /^cgk_[A-Za-z0-9_-]{43}$/;

/** A fresh API key. */
export function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString("base64url");
}

/** Throws 401 unless `key` has the shape of an API key (checked before any lookup). */
export function checkApiKeyShape(key: string): void {
  if (key.length !== API_KEY_LENGTH) {
    throw unauthorized(`An API key is ${API_KEY_LENGTH} characters long, this one ${key.length}`);
  }
  if (!API_KEY.test(key)) throw unauthorized("Malformed API key");
}
