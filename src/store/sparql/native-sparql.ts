import fs from "node:fs";
import { AppError } from "../../errors";
import { serializeBoolean, serializeSolutions, solutionsFromJson } from "../../rdf/sparql-results";
import {
  nativeAddon,
  nativeErrorKind,
  nativeMessage,
  type NativeQueryCancel,
  type NativeStore,
} from "../native/native-addon";
import { tenantFolders } from "../native/tenant-folders";
import type { SparqlAnswer, SparqlQuery } from "./sparql-query";

/** Options of {@link NativeSparql}. */
export interface NativeSparqlOptions {
  /** `<dataDir>/store`. */
  storeDir: string;
  /** A query running longer is stopped (SPARQL_TIMEOUT). */
  timeoutMs: number;
  /** Queries running at once (SPARQL_MAX_RUNNING); more wait in line. */
  maxRunning: number;
  /** Queries waiting beyond this many are refused with 503 (default 64). */
  maxQueue?: number;
}

/**
 * The SPARQL engine of `/sparql` (docs/sparql.md, docs/decisions/0019-native-store.md): each query runs on
 * a thread of its own at low CPU priority, over a RocksDB snapshot of the tenant's public store taken as it
 * starts, so it never holds up the HTTP thread, the store worker's writes or other queries' reads; at the
 * timeout its cancellation token stops it. The store handle is the one the store worker writes through
 * (one per folder in the process). A tenant without a store answers from an empty one.
 *
 * Consistency: a commit is applied to RocksDB before it is acknowledged, so a client that wrote through
 * NGSI-LD and then queries SPARQL sees its write.
 */
export class NativeSparql {
  private readonly stores = new Map<string, NativeStore>();
  private empty: NativeStore | undefined;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  constructor(private readonly opts: NativeSparqlOptions) {}

  /**
   * Runs a query; resolves with the serialized answer, or rejects with an AppError (400, 503). At the
   * timeout the client is answered at once; the query's thread stops at its next check of the token and
   * keeps its turn until then, so stopped queries never pile up on the cores.
   */
  async query(q: SparqlQuery): Promise<SparqlAnswer> {
    if (this.closed) throw new AppError("ServiceUnavailable", "The SPARQL service is closing");
    await this.turn();
    const { QueryCancel } = nativeAddon();
    const cancel = new QueryCancel();
    const answer = this.run(q, cancel);
    void answer
      .catch(() => undefined)
      .then(() => {
        this.running--;
        this.waiting.shift()?.();
      });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cancel.cancel();
        reject(
          new AppError(
            "ServiceUnavailable",
            `The SPARQL query ran past the ${this.opts.timeoutMs} ms limit and was stopped`,
            { timeoutMs: this.opts.timeoutMs },
          ),
        );
      }, this.opts.timeoutMs);
    });
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Queries running and waiting (for /health and the metrics). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Lets go of the store handles; queries still running finish on their own references. */
  close(): Promise<void> {
    this.closed = true;
    for (const s of this.stores.values()) s.close();
    this.stores.clear();
    return Promise.resolve();
  }

  private turn(): Promise<void> {
    if (this.running < this.opts.maxRunning) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= (this.opts.maxQueue ?? 64)) {
      return Promise.reject(
        new AppError("ServiceUnavailable", "Too many SPARQL queries are waiting; try again shortly", {
          waiting: this.waiting.length,
        }),
      );
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.running++;
        resolve();
      }),
    );
  }

  private async run(q: SparqlQuery, cancel: NativeQueryCancel): Promise<SparqlAnswer> {
    // ASK answers and formula-escaped CSV are written here from the JSON answer; the rest by the engine
    const here = q.form === "ASK" || q.format === "csv-escaped";
    try {
      const answer = await this.storeOf(q.tenant).query(
        q.sparql,
        here ? "json" : q.format,
        q.maxRows,
        cancel,
      );
      if (!here) return answer;
      const json = JSON.parse(answer.body) as { boolean?: boolean };
      if (typeof json.boolean === "boolean")
        return { ...answer, body: serializeBoolean(q.format, json.boolean) };
      const { vars, rows } = solutionsFromJson(answer.body);
      return { ...answer, body: serializeSolutions(q.format, vars, rows) };
    } catch (e) {
      const kind = nativeErrorKind(e);
      if (kind === "Cancelled") throw new AppError("ServiceUnavailable", "The SPARQL query was stopped");
      if (kind === "Refused") throw new AppError("BadRequestData", nativeMessage(e));
      throw e;
    }
  }

  private storeOf(tenant: string): NativeStore {
    let s = this.stores.get(tenant);
    if (s) return s;
    const dir = tenantFolders(this.opts.storeDir, tenant).public;
    const { NativeStore } = nativeAddon();
    // a tenant that never wrote has no folder: it is not made here, for a query of any name
    if (!fs.existsSync(dir)) return (this.empty ??= NativeStore.inMemory());
    s = NativeStore.open(dir);
    this.stores.set(tenant, s);
    return s;
  }
}
