import type { IncomingHttpHeaders } from "node:http";
import type { Credential } from "../../auth/auth-service";
import { unauthorized } from "../../auth/token-errors";

/**
 * The credential of a request (docs/auth.md "Credentials"): `Authorization: Bearer <token>`,
 * `X-API-Key: <key>`, or, for WebSocket upgrades, the query parameter `token`. Another scheme in
 * `Authorization` is 401.
 */
export function credentialOf(headers: IncomingHttpHeaders, query?: URLSearchParams): Credential {
  const apiKey = headers["x-api-key"];
  if (typeof apiKey === "string") return { apiKey };
  const authz = headers.authorization;
  if (typeof authz === "string" && authz !== "") return { bearer: bearerOf(authz) };
  const token = query?.get("token");
  if (token) return { bearer: token };
  return {};
}

/** The token of an `Authorization` value (or of graphql-ws's `authorization` connection parameter). */
export function bearerOf(value: string): string {
  // the common form without a regular expression: this runs on every request
  if (value.startsWith("Bearer ") && value.indexOf(" ", 7) === -1 && value.length > 7) return value.slice(7);
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(value);
  if (!m) throw unauthorized("Authorization must be 'Bearer <token>'");
  return m[1];
}
