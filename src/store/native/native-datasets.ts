import fs from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";
import { ntBlank, ntIri, ntLangLiteral, ntLiteral } from "../../rdf/ntriples/write";
import { isGraphForm, queryFormOf } from "../../rdf/sparql-results";
import { XSD_STRING } from "../../rdf/vocab";
import { isHistoryGraph, isInternalGraph, type SelectRow } from "../graph-store";
import { assertGraphIri } from "../worker/ntriples-text";
import { instanceRowsOf } from "./history-instances";
import {
  nativeAddon,
  nativeErrorKind,
  nativeMessage,
  type NativeStore,
  type NativeWriteOp,
} from "./native-addon";
import { plainTriplesOf } from "./plain-view";
import { listTenantFolders, tenantFolders, tenantKey } from "./tenant-folders";

/** A write as the datasets take it: N-Triples as text or UTF-8 bytes, or null to drop the graph. */
export interface TextWrite {
  graph: string;
  triples: string | Uint8Array | null;
}

interface TenantStores {
  public: NativeStore;
  internal: NativeStore;
}

const utf8 = (t: string | Uint8Array): string =>
  typeof t === "string" ? t : Buffer.from(t).toString("utf8");
const bytes = (t: string | Uint8Array): Buffer =>
  typeof t === "string" ? Buffer.from(t, "utf8") : Buffer.from(t.buffer, t.byteOffset, t.byteLength);

/**
 * Every tenant's graphs in Oxigraph's RocksDB stores (docs/decisions/0019-native-store.md), as the store
 * worker applies commits to them. A write to an entity graph replaces the graph and its plain view in the
 * default graph; a write to a history segment replaces the segment and its rows in the entity's instance
 * graph; a write to an internal graph goes to the tenant's internal store, which SPARQL never reads. One
 * commit is one RocksDB transaction per store it touches.
 *
 * Blank nodes: each insert renames its labels, so `_:b0` of entity A never meets `_:b0` of entity B, and a
 * replace never reuses the old nodes. Reads return the store's labels (stable until the graph is rewritten).
 */
export class NativeDatasets {
  private readonly stores = new Map<string, TenantStores>();
  private counted = 0;
  private delta = 0;
  private countsPending = 0;
  private empty: NativeStore | undefined;

  /** `storeDir`: `<dataDir>/store`. Opens the stores of every tenant that has folders there. */
  constructor(private readonly storeDir: string) {
    for (const t of listTenantFolders(storeDir)) this.storesOf(t);
  }

  /**
   * Quads in all tenants' stores: counted once in the background at open, plus the change of every write
   * since; -1 until those counts are in.
   */
  get quads(): number {
    return this.countsPending > 0 ? -1 : this.counted + this.delta;
  }

  /**
   * Counts each store's quads on threads of their own (a scan of RocksDB: seconds at a million entities),
   * over snapshots taken at the call: the changes of writes applied before it (a journal replay, a store
   * built from a snapshot) are in the count, so they are forgotten here and only later ones are added.
   */
  countInBackground(onDone: (quads: number) => void): void {
    const all = [...this.stores.values()].flatMap((s) => [s.public, s.internal]);
    this.delta = 0;
    this.counted = 0;
    this.countsPending = all.length;
    if (all.length === 0) return onDone(this.quads);
    for (const s of all) {
      void s.countQuadsAsync().then(
        (n) => {
          this.counted += n;
          if (--this.countsPending === 0) onDone(this.quads);
        },
        () => {
          if (--this.countsPending === 0) onDone(this.quads);
        },
      );
    }
  }

  /** Tenants that have stores (whether or not they still hold a graph). */
  tenants(): string[] {
    return [...this.stores.keys()];
  }

  /** The folders of every open store (for the size figures). */
  folders(): string[] {
    return [...this.stores.values()].flatMap((s) => [s.public.path!, s.internal.path!]);
  }

  /**
   * Applies one commit atomically in each store it touches (a failing write refuses the commit with
   * BadRequestData, nothing of that store applied). `replay`: text accepted by a strict parse before
   * (journal replay), parsed without IRI validation.
   */
  apply(tenant: string, writes: TextWrite[], replay = false): void {
    for (const w of writes) assertGraphIri(w.graph);
    const stores = this.storesOf(tenant);
    const publicOps: NativeWriteOp[] = [];
    const internalOps: NativeWriteOp[] = [];
    for (const w of writes) {
      if (isInternalGraph(w.graph)) internalOps.push(...replaceOps(w));
      else if (isHistoryGraph(w.graph)) publicOps.push(...this.segmentOps(stores.public, w));
      else publicOps.push(...entityOps(w));
    }
    try {
      // the internal store first: a failure there leaves the public store untouched
      if (internalOps.length) this.delta += stores.internal.apply(internalOps, replay);
      if (publicOps.length) this.delta += stores.public.apply(publicOps, replay);
    } catch (e) {
      if (nativeErrorKind(e) === "Refused")
        throw new AppError("BadRequestData", `The store could not load a graph: ${nativeMessage(e)}`);
      throw e;
    }
  }

  /**
   * SELECT rows (variable -> term in N-Triples syntax) of the store's own queries, over the tenant's public
   * store and then its internal one (each pattern of these queries lies within one graph). An ASK answers
   * `[{}]` for true, `[]` for false. Other query forms are BadRequestData.
   */
  select(tenant: string, sparql: string): SelectRow[] {
    const form = queryFormOf(sparql);
    if (isGraphForm(form))
      throw new AppError("BadRequestData", "Only SPARQL SELECT and ASK queries are accepted here");
    const stores = this.stores.get(tenant);
    const rows: SelectRow[] = [];
    // a tenant without stores answers from an empty one (so a bad query is still refused)
    const all = stores
      ? [stores.public, stores.internal]
      : [(this.empty ??= nativeAddon().NativeStore.inMemory())];
    for (const store of all) {
      let answer: string;
      try {
        answer = store.querySync(sparql, "json", Number.MAX_SAFE_INTEGER >>> 0).body;
      } catch (e) {
        throw new AppError("BadRequestData", nativeMessage(e));
      }
      const json = JSON.parse(answer) as {
        boolean?: boolean;
        results?: { bindings: Record<string, JsonTerm>[] };
      };
      if (json.boolean !== undefined) {
        if (json.boolean) return [{}];
        continue;
      }
      for (const b of json.results?.bindings ?? []) {
        const row: SelectRow = {};
        for (const [k, v] of Object.entries(b)) row[k] = ntTerm(v);
        rows.push(row);
      }
    }
    return rows;
  }

  /** Makes every applied write durable in RocksDB (memtables to synced files). */
  flush(): void {
    for (const s of this.stores.values()) {
      s.public.flush();
      s.internal.flush();
    }
  }

  /**
   * `flush` on threads of their own: the writes applied before the call are durable once it resolves, while
   * the caller goes on applying and reading (a flush at a million entities takes seconds).
   */
  async flushInBackground(): Promise<void> {
    await Promise.all(
      [...this.stores.values()].flatMap((s) => [s.public.flushAsync(), s.internal.flushAsync()]),
    );
  }

  /**
   * A RocksDB checkpoint of every tenant's stores under `dir` (`<tenant key>/public`, `.../internal`), on
   * threads of their own: RocksDB flushes the memtables, then links the table files. It holds every write
   * applied before the call, and perhaps some applied while it runs (a replay of the journal from the seq
   * of the call rewrites those graphs to the same content: every record replaces whole graphs).
   */
  async checkpoint(dir: string): Promise<void> {
    for (const [tenant, s] of [...this.stores]) {
      const base = path.join(dir, tenantKey(tenant));
      fs.mkdirSync(base, { recursive: true });
      await s.public.checkpoint(path.join(base, "public"));
      await s.internal.checkpoint(path.join(base, "internal"));
    }
  }

  /** Lets go of every store handle. */
  close(): void {
    for (const s of this.stores.values()) {
      s.public.close();
      s.internal.close();
    }
    this.stores.clear();
  }

  private storesOf(tenant: string): TenantStores {
    let s = this.stores.get(tenant);
    if (!s) {
      const dirs = tenantFolders(this.storeDir, tenant);
      const { NativeStore } = nativeAddon();
      s = { public: NativeStore.open(dirs.public), internal: NativeStore.open(dirs.internal) };
      this.stores.set(tenant, s);
    }
    return s;
  }

  /** A segment's replace, and the change of its rows in the entity's instance graph. */
  private segmentOps(store: NativeStore, w: TextWrite): NativeWriteOp[] {
    const ops = replaceOps(w);
    const before = instanceRowsOf(store.readGraphs([w.graph])[0]);
    const after = instanceRowsOf(w.triples === null ? null : utf8(w.triples));
    if (before) ops.push({ op: "delete", graph: before.graph, triples: Buffer.from(before.text, "utf8") });
    if (after) ops.push({ op: "insert", graph: after.graph, triples: Buffer.from(after.text, "utf8") });
    return ops;
  }
}

interface JsonTerm {
  type: "uri" | "literal" | "bnode" | "triple";
  value: string;
  datatype?: string;
  "xml:lang"?: string;
}

/** A SPARQL JSON result term in N-Triples syntax. */
function ntTerm(t: JsonTerm): string {
  if (t.type === "uri") return ntIri(t.value);
  if (t.type === "bnode") return ntBlank(t.value);
  if (t["xml:lang"]) return ntLangLiteral(t.value, t["xml:lang"]);
  return ntLiteral(t.value, t.datatype ?? XSD_STRING);
}

/** Clear a graph and load its new N-Triples. */
function replaceOps(w: TextWrite): NativeWriteOp[] {
  const ops: NativeWriteOp[] = [{ op: "clear", graph: w.graph }];
  if (w.triples !== null && w.triples.length > 0)
    ops.push({ op: "insert", graph: w.graph, triples: bytes(w.triples) });
  return ops;
}

/** An entity's replace: its graph and its plain view in the default graph. */
function entityOps(w: TextWrite): NativeWriteOp[] {
  const ops = replaceOps(w);
  ops.push({ op: "clearSubject", graph: "", subject: `<${w.graph}>` });
  if (w.triples !== null && w.triples.length > 0) {
    const plain = plainTriplesOf(w.graph, utf8(w.triples));
    if (plain) ops.push({ op: "insert", graph: "", triples: Buffer.from(plain, "utf8") });
  }
  return ops;
}
