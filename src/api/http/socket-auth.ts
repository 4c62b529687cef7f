import type { IncomingMessage } from "node:http";
import { AppError, ERROR_KINDS } from "../../errors";
import type { Principal } from "./request-context";

/** Who holds a socket, and until when (the token's expiry; the socket is closed with 4401 then). */
export interface SocketSession {
  principal: Principal;
  /** Epoch ms when the credentials expire; undefined = never. */
  expiresAt?: number;
}

/**
 * The auth hook of the socket faces (interface spec §5 items 4-5, decisions.md "Identity, roles,
 * tokens"): checks a bearer token (or its absence) and resolves the session, or throws
 * AppError("Unauthorized") / AppError("AccessDenied"). The composition root sets it from src/auth.
 */
export interface SocketAuth {
  authenticate(token: string | undefined): Promise<SocketSession>;
  /** True if the principal may change data (GraphQL mutations). */
  mayWrite(principal: Principal): boolean;
}

/** Everyone may connect and write: the hook as it stands with `AUTH=off`. */
export const OPEN_SOCKET_AUTH: SocketAuth = {
  authenticate: async () => ({
    principal: { id: "anonymous", kind: "anonymous", role: "admin", tenants: [] },
  }),
  mayWrite: () => true,
};

/** The token of a WebSocket upgrade: query parameter `token`, else the `Authorization: Bearer` header. */
export function upgradeToken(req: IncomingMessage): string | undefined {
  const q = new URL(req.url ?? "/", "http://x").searchParams.get("token");
  if (q) return q;
  return bearerToken(req.headers.authorization);
}

/** The token of an `Authorization: Bearer <token>` value, or undefined. */
export function bearerToken(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return m ? m[1] : undefined;
}

/** The WebSocket close code of an auth failure: 4401 unauthorized, 4403 forbidden (decisions.md "Errors"). */
export function authCloseCode(e: AppError): number {
  return e.kind === "AccessDenied"
    ? 4000 + ERROR_KINDS.AccessDenied.status
    : 4000 + ERROR_KINDS.Unauthorized.status;
}
