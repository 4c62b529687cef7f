import type { LiveAuth, SocketSession } from "../api/http/live-auth";
import { OPEN_LIVE_AUTH } from "../api/http/live-auth";
import { authenticateConnectionParams, authenticateUpgrade } from "../api/http/socket-auth";
import { SocketSlots } from "../api/http/socket-slots";
import { AppError } from "../errors";
import type { AuthParts } from "../auth/open-auth";
import { allows, checkPermission } from "../auth/permissions";
import type { Principal } from "../auth/principal";

/**
 * The push faces' auth hook over src/auth: an upgrade or a graphql-ws connection needs `read`; the
 * session ends when the access token's `exp` passes (the token was verified by the auth service before
 * its payload is read here). Each opening counts as a request in the principal's rate limit, and a
 * principal holds at most `maxSockets` sockets over both faces (close 4429 past either). With `auth`
 * undefined (AUTH=off) everyone is let in.
 */
export function liveAuth(auth: AuthParts | undefined, maxSockets: number): LiveAuth {
  if (!auth) return OPEN_LIVE_AUTH;
  const authenticator = { authenticate: auth.service.authenticate.bind(auth.service) };
  const slots = new SocketSlots(maxSockets);
  /** Counts the opening against the rate limit and takes a socket slot. */
  const admit = async (s: SocketSession): Promise<SocketSession> => {
    const d = await auth.rateLimits.consume(s.principal, false);
    if (d?.retryAfterS !== undefined) {
      throw new AppError(
        "TooManyRequests",
        `Rate limit of ${d.limit} requests exceeded, retry in ${d.retryAfterS} seconds`,
        { retry_after: d.retryAfterS },
      );
    }
    return { ...s, release: slots.take(s.principal) };
  };
  return {
    upgrade: async (req) => {
      const principal = await authenticateUpgrade(authenticator, req, "ws", "read");
      const q = new URL(req.url ?? "/", "http://x").searchParams.get("token");
      return admit(session(principal, q ?? req.headers.authorization));
    },
    connection: async (params, req) => {
      const principal = await authenticateConnectionParams(authenticator, params, req);
      checkPermission(principal, "read");
      return admit(session(principal, params?.authorization ?? params?.Authorization));
    },
    mayWrite: (p) => allows(p, "write"),
    mayReport: (p) => allows(p, "report"),
  };
}

/** The session of a verified principal, ending at its JWT's `exp` when the credential is one. */
function session(principal: Principal, credential: unknown): SocketSession {
  if (typeof credential !== "string") return { principal };
  const token = credential.replace(/^Bearer\s+/i, "");
  const payload = token.split(".")[1];
  if (!payload) return { principal };
  try {
    const exp = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown }).exp;
    return typeof exp === "number" ? { principal, expiresAt: exp * 1000 } : { principal };
  } catch {
    return { principal };
  }
}
