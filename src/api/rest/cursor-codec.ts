import crypto from "node:crypto";
import { badRequest } from "../../errors";

/** One component of a keyset sort key. */
export type KeyPart = string | number;

/** What a cursor remembers: the list it belongs to and the sort key of the last item it returned. */
export interface CursorState {
  /** The list and its filters (see {@link listScope}); a cursor is refused on any other list. */
  scope: string;
  /** Sort key of the last item of the page the cursor follows. */
  after: KeyPart[];
}

const VERSION = "1";
const MAC_BYTES = 16;
/** Longest cursor accepted: a sort key is a few short strings and numbers. */
const MAX_CURSOR_CHARS = 1024;

/**
 * Opaque, tamper-evident cursors (docs/rest.md "The two pagination forms", cursor form):
 * `base64url([scope digest, sort key]) "." base64url(HMAC-SHA256(key, version + body))[0..16 bytes]`.
 * The sort key is readable if decoded, but any change, truncation or forgery fails the MAC and is a 400
 * `INVALID_PARAMETER` on `cursor`; a cursor of one list given to another (other path or filters) too.
 */
export class CursorCodec {
  constructor(private readonly key: Buffer) {}

  encode(state: CursorState): string {
    const body = Buffer.from(JSON.stringify([scopeTag(state.scope), state.after]), "utf8").toString(
      "base64url",
    );
    return `${body}.${this.mac(body)}`;
  }

  /** The state of `token`, checked to belong to `scope`. */
  decode(token: string, scope: string): CursorState {
    const invalid = (why: string) =>
      badRequest(`Invalid cursor: ${why}`, {
        parameter: "cursor",
        value: token.length > 80 ? token.slice(0, 80) + "…" : token,
        expected: "the next_cursor of an earlier page of the same list and filters",
      });
    if (token.length > MAX_CURSOR_CHARS) throw invalid("too long");
    const dot = token.indexOf(".");
    if (dot <= 0) throw invalid("malformed");
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), "base64url");
    const want = Buffer.from(this.mac(body), "base64url");
    if (given.length !== want.length || !crypto.timingSafeEqual(given, want)) {
      throw invalid("signature does not match");
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    } catch {
      throw invalid("malformed");
    }
    if (!isState(parsed)) throw invalid("malformed");
    if (parsed[0] !== scopeTag(scope)) throw invalid("it belongs to another list or other filters");
    return { scope, after: parsed[1] };
  }

  private mac(body: string): string {
    return crypto
      .createHmac("sha256", this.key)
      .update(VERSION)
      .update(body)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString("base64url");
  }
}

/** A short digest of a scope: cursors stay small and do not spell out the filters. */
function scopeTag(scope: string): string {
  return crypto.createHash("sha256").update(scope).digest().subarray(0, 9).toString("base64url");
}

function isState(v: unknown): v is [string, KeyPart[]] {
  return (
    Array.isArray(v) &&
    v.length === 2 &&
    typeof v[0] === "string" &&
    Array.isArray(v[1]) &&
    (v[1] as unknown[]).every((p) => typeof p === "string" || (typeof p === "number" && Number.isFinite(p)))
  );
}

/**
 * The scope of a list: its path and its filters in a canonical order (paging parameters left out), so
 * that a cursor only continues the walk it was made for.
 */
export function listScope(path: string, filters: Record<string, unknown>): string {
  const parts = Object.keys(filters)
    .filter((k) => filters[k] !== undefined)
    .sort()
    .map((k) => `${k}=${JSON.stringify(filters[k])}`);
  return `${path}?${parts.join("&")}`;
}
