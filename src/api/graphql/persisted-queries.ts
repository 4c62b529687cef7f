import { createHash } from "node:crypto";
import { GraphQLError } from "graphql";

/** The `extensions.persistedQuery` of an automatic persisted query request (Apollo APQ, version 1). */
interface PersistedQueryExtension {
  version?: unknown;
  sha256Hash?: unknown;
}

/**
 * Automatic persisted queries: a client sends only the sha256 of a query it sent before (also by GET,
 * so that a CDN can cache it); an unknown hash answers PERSISTED_QUERY_NOT_FOUND and the client sends
 * the query with its hash once. Known queries are kept in a bounded LRU map in memory.
 */
export class PersistedQueries {
  private readonly byHash = new Map<string, string>();

  constructor(private readonly max = 1000) {}

  /**
   * The query text of a request: `query` itself (remembered under its hash when the request names
   * one, which must match), or the remembered text of the hash. Throws GraphQLError otherwise.
   */
  resolve(query: unknown, extensions: unknown): unknown {
    const ext = (extensions as { persistedQuery?: PersistedQueryExtension } | undefined)?.persistedQuery;
    if (!ext || typeof ext !== "object") return query;
    if (ext.version !== 1 || typeof ext.sha256Hash !== "string" || !/^[0-9a-f]{64}$/i.test(ext.sha256Hash)) {
      throw new GraphQLError("persistedQuery needs version 1 and a sha256Hash of 64 hex digits", {
        extensions: { code: "INVALID_REQUEST" },
      });
    }
    const hash = ext.sha256Hash.toLowerCase();
    if (typeof query === "string") {
      if (sha256(query) !== hash) {
        throw new GraphQLError("provided sha256Hash does not match query", {
          extensions: { code: "PERSISTED_QUERY_HASH_MISMATCH" },
        });
      }
      this.remember(hash, query);
      return query;
    }
    const known = this.byHash.get(hash);
    if (known === undefined) {
      throw new GraphQLError("PersistedQueryNotFound", { extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } });
    }
    this.byHash.delete(hash);
    this.byHash.set(hash, known);
    return known;
  }

  private remember(hash: string, query: string): void {
    this.byHash.delete(hash);
    this.byHash.set(hash, query);
    if (this.byHash.size > this.max) this.byHash.delete(this.byHash.keys().next().value as string);
  }
}

/** Hex sha256 of a text. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
