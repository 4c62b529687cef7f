import type { IncomingHttpHeaders } from "node:http";
import type { Credential } from "../../auth/auth-service";
import { unauthorized } from "../../auth/token-errors";

/**
 * The credential of a request (decisions.md "Identity, roles, tokens"): `Authorization: Bearer <token>`,
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
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(value);
  if (!m) throw unauthorized("Authorization must be 'Bearer <token>'");
  return m[1];
}
