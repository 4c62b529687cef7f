import type { IncomingMessage } from "node:http";
import type { Principal } from "./request-context";
import { authenticateConnectionParams, authenticateUpgrade } from "./socket-auth";

/** Who holds a socket, and until when (the token's expiry; the socket is closed with 4401 then). */
export interface SocketSession {
  principal: Principal;
  /** Epoch ms when the credential expires; undefined = never. */
  expiresAt?: number;
  /** Gives back the principal's socket slot: the socket faces call it when the socket closes. */
  release?(): void;
}

/**
 * The auth hook of the push faces (docs/auth.md
 * "Credentials"): the session of a `/ws` upgrade (query `token` or the Authorization header) and of graphql-ws
 * connection parameters (`authorization: "Bearer <token>"`, the tenant from its upgrade request `req`),
 * or an AppError Unauthorized / AccessDenied / BadRequestData (close 4401 / 4403 / 4400, socket-auth.ts
 * closeCodeOf); and whether a principal may write. The composition
 * root makes it from src/auth (src/app/live-auth.ts).
 */
export interface LiveAuth {
  upgrade(req: IncomingMessage): Promise<SocketSession>;
  connection(params: Record<string, unknown> | undefined, req?: IncomingMessage): Promise<SocketSession>;
  /** True if the principal may change data (GraphQL updateCameraStatus). */
  mayWrite(principal: Principal): boolean;
  /** True if the principal may submit citizen reports (GraphQL submitCitizenReport). */
  mayReport(principal: Principal): boolean;
}

/** Everyone is the admin (`AUTH=off`); the tenant rule of the traffic faces still holds. */
export const OPEN_LIVE_AUTH: LiveAuth = {
  upgrade: async (req) => ({ principal: await authenticateUpgrade(undefined, req, "ws") }),
  connection: async (params, req) => ({
    principal: await authenticateConnectionParams(undefined, params, req),
  }),
  mayWrite: () => true,
  mayReport: () => true,
};
